/** Sign-in: the API key is exchanged for a token once and never stored. */
import { useState } from 'preact/hooks';
import { ApiError, signIn } from '../api.js';
import { useT } from '../i18n.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const t = useT();
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(apiKey.trim());
      onSignedIn();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card narrow" onSubmit={submit}>
      <h1>{t('signIn')}</h1>
      <label>
        {t('apiKey')}
        <input
          name="apiKey"
          type="password"
          autoComplete="off"
          value={apiKey}
          onInput={(e) => setApiKey(e.currentTarget.value)}
          required
        />
      </label>
      <p class="hint">{t('apiKeyHint')}</p>
      {error && <p class="error">{error}</p>}
      <button type="submit" disabled={busy}>
        {t('signIn')}
      </button>
    </form>
  );
}
