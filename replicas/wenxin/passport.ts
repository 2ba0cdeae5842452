/**
 * Baidu's passport page, where a logged-out visitor of some builds is sent
 * (`/passport/login` here; passport.baidu.com on the real site): the SMS
 * form (`#TANGRAM__PSP_11__smsPhone`, 短信登录) and the QR code for the Baidu
 * app (扫码登录), as xln3/platform-v2 `yiyan_adapter.py` names the layer's
 * parts. No composer: a page that only asks to log in.
 */
export function passportPage(): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>百度账号登录</title></head>
<body><main class="pass-login">
  <h1>登录百度账号</h1>
  <p><span class="switch-item">短信登录</span> · <span class="switch-item">账号登录</span></p>
  <form><input id="TANGRAM__PSP_11__smsPhone" type="tel" placeholder="手机号"><input type="text" placeholder="验证码">
  <button type="button">登录</button></form>
  <p class="tang-pass-qrcode-title">扫码登录</p><p>请使用百度App扫码登录</p>
</main></body></html>`;
}
