import t from 'tap';
import { domainName, domainOf, tagDomain } from '../../../services/shared/brand/domains.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';

t.test('domainOf: the host, lower-case, without www.', async (t) => {
  t.equal(domainOf('https://WWW.Acme.COM/x?y#z'), 'acme.com');
  t.equal(domainOf('http://docs.acme.com:8080/'), 'docs.acme.com');
  t.equal(domainOf('https://www.acme.com./'), 'acme.com', 'trailing dot');
  const punycode = new URL('https://阿克米.cn/').hostname;
  t.match(punycode, /^xn--/);
  t.equal(domainOf(`https://${punycode}/`), '阿克米.cn', 'IDN in one form, Unicode');
  t.equal(domainOf('https://阿克米.CN/'), '阿克米.cn', 'shown in Unicode');
  t.equal(domainOf('//acme.com/p'), 'acme.com', 'protocol-relative');
  t.equal(domainOf('acme.com/p'), 'acme.com', 'no scheme');
  t.equal(domainOf('https://1.2.3.4/'), '1.2.3.4');
  t.equal(domainOf('https://wwwacme.com/'), 'wwwacme.com', 'only a www. label is dropped');
});

t.test('domainOf: null without a host', async (t) => {
  for (const url of [
    '',
    '   ',
    'mailto:a@acme.com',
    'not a url',
    'http://',
    'javascript:void(0)',
    'data:text/plain,x',
  ]) {
    t.equal(domainOf(url), null, JSON.stringify(url));
  }
});

t.test('domainName', async (t) => {
  t.equal(domainName('Acme.com'), 'acme.com');
  t.equal(domainName('acme.xn--fiqs8s'), 'acme.中国');
  t.equal(domainName('Node.js'), 'node.js', 'looks like a domain, so it is one (documented)');
  t.equal(domainName('acme'), null);
  t.equal(domainName('acme.c'), null, 'one-letter top-level label');
  t.equal(domainName('acme.123'), null);
});

t.test('tagDomain: owned (first group), competitor (another), other', async (t) => {
  const groups = keywordGroups([
    'Acme|acme.com|阿克米.cn',
    'Beta|beta.io',
    'Gamma|shop.acme.com',
    'Delta',
  ]);
  t.same(tagDomain('acme.com', groups), { tag: 'owned', keyword: 'Acme' });
  t.same(tagDomain('docs.acme.com', groups), { tag: 'owned', keyword: 'Acme' }, 'subdomain');
  t.same(tagDomain('WWW.ACME.COM', groups), { tag: 'owned', keyword: 'Acme' }, 'any case, www.');
  t.same(tagDomain('阿克米.cn', groups), { tag: 'owned', keyword: 'Acme' });
  t.same(tagDomain('beta.io', groups), { tag: 'competitor', keyword: 'Beta' });
  t.same(tagDomain('cdn.beta.io', groups), { tag: 'competitor', keyword: 'Beta' });
  t.same(
    tagDomain('x.shop.acme.com', groups),
    { tag: 'competitor', keyword: 'Gamma' },
    'the most specific wins',
  );
  t.same(tagDomain('notacme.com', groups), { tag: 'other' }, 'not a label boundary');
  t.same(tagDomain('acme.com.cn', groups), { tag: 'other' });
  t.same(tagDomain('delta.com', groups), { tag: 'other' }, 'a group without domains owns none');
  t.same(tagDomain('acme.com', []), { tag: 'other' });
});

t.test('the same domain declared by two groups belongs to the earlier one', async (t) => {
  const groups = keywordGroups(['Acme', 'Beta|shared.com', 'Gamma|shared.com']);
  t.same(tagDomain('shared.com', groups), { tag: 'competitor', keyword: 'Beta' });
});
