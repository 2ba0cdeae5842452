/**
 * The new batch form (spec 4.1). The API validates; its 400 `errors` list is
 * shown next to the field each entry names.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import {
  batchBody,
  errorsByField,
  parsePrompts,
  type BatchForm,
  type FormField,
} from '../batch-form.js';
import { PlatformPicker } from '../components/platform-picker.js';
import { useT } from '../i18n.js';
import { navigate, paths } from '../router.js';
import type { CityInfoRecord, PlatformInfo, SubmitData } from '../types.js';
import type { ComponentChildren } from 'preact';

const EMPTY: BatchForm = {
  name: '',
  prompts: '',
  choices: [],
  screenshot: 0,
  regionCode: '',
  monitorKeywords: '',
  callbackUrl: '',
};

export function NewBatch() {
  const t = useT();
  const [form, setForm] = useState<BatchForm>(EMPTY);
  const [platforms, setPlatforms] = useState<PlatformInfo[]>([]);
  const [cities, setCities] = useState<CityInfoRecord[]>([]);
  const [problems, setProblems] = useState<Partial<Record<FormField, string[]>>>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof BatchForm>(key: K, value: BatchForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  // The verdicts depend on the region: a web channel needs an account there.
  useEffect(() => {
    const query = form.regionCode ? `?regionCode=${encodeURIComponent(form.regionCode)}` : '';
    get<PlatformInfo[]>(`${PATHS.PLATFORMS}${query}`).then(setPlatforms, () => setPlatforms([]));
  }, [form.regionCode]);
  useEffect(() => {
    get<CityInfoRecord[]>(`${PATHS.CITY_INFO}?deduplicate=true`).then(setCities, () =>
      setCities([]),
    );
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (form.choices.length === 0) {
      setProblems({ platforms: [t('choosePlatform')] });
      return;
    }
    setBusy(true);
    setProblems({});
    try {
      const data = await post<SubmitData>(PATHS.TASK_SUBMIT, batchBody(form));
      navigate(paths.task(data.taskId));
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(0, String(err));
      setProblems(e.errors.length ? errorsByField(e.errors) : { form: [e.message] });
    } finally {
      setBusy(false);
    }
  };

  const count = parsePrompts(form.prompts).length;
  return (
    <form class="card" onSubmit={submit} noValidate>
      <h1>{t('newBatch')}</h1>
      {Object.keys(problems).length > 0 && <p class="error">{t('fixErrors')}</p>}
      <Problems list={problems.form} field="form" />
      <Field label={t('taskName')} hint={t('taskNameHint')} field="name" problems={problems}>
        <input
          name="name"
          maxLength={200}
          value={form.name}
          onInput={(e) => set('name', e.currentTarget.value)}
        />
      </Field>
      <Field
        label={`${t('prompts')} (${count})`}
        hint={t('promptsHint')}
        field="prompts"
        problems={problems}
      >
        <textarea
          name="prompts"
          rows={5}
          value={form.prompts}
          onInput={(e) => set('prompts', e.currentTarget.value)}
        />
      </Field>
      <Field
        label={t('platforms')}
        hint={t('platformsHint')}
        field="platforms"
        problems={problems}
        group
      >
        <PlatformPicker
          platforms={platforms}
          regionCode={form.regionCode}
          choices={form.choices}
          onChange={(c) => set('choices', c)}
        />
      </Field>
      <div class="grid2">
        <Field label={t('screenshot')} field="form" problems={{}}>
          <select
            name="screenshot"
            value={String(form.screenshot)}
            onChange={(e) => set('screenshot', Number(e.currentTarget.value))}
          >
            <option value="0">{t('screenshot0')}</option>
            <option value="1">{t('screenshot1')}</option>
            <option value="2">{t('screenshot2')}</option>
          </select>
        </Field>
        <Field label={t('region')} field="regionCode" problems={problems}>
          <select
            name="regionCode"
            value={form.regionCode}
            onChange={(e) => set('regionCode', e.currentTarget.value)}
          >
            <option value="">{t('defaultRegion')}</option>
            {cities.map((c) => {
              const code = c.regionCode.at(-1) ?? '';
              return (
                <option value={code}>
                  {c.province === c.city ? c.city : `${c.province} ${c.city}`} ({code})
                  {c.active ? '' : ` — ${t('inactive')}`}
                </option>
              );
            })}
          </select>
        </Field>
      </div>
      <Field
        label={t('keywords')}
        hint={t('keywordsHint')}
        field="monitorKeywords"
        problems={problems}
      >
        <input
          name="monitorKeywords"
          value={form.monitorKeywords}
          onInput={(e) => set('monitorKeywords', e.currentTarget.value)}
        />
      </Field>
      <Field label={t('callbackUrl')} field="callbackUrl" problems={problems}>
        <input
          name="callbackUrl"
          type="url"
          value={form.callbackUrl}
          onInput={(e) => set('callbackUrl', e.currentTarget.value)}
        />
      </Field>
      <button type="submit" disabled={busy}>
        {busy ? t('submitting') : t('submit')}
      </button>
    </form>
  );
}

interface FieldProps {
  label: string;
  /** Several controls (a fieldset with a legend) rather than one labelled control. */
  group?: boolean;
  hint?: string;
  field: FormField;
  problems: Partial<Record<FormField, string[]>>;
  children: ComponentChildren;
}

function Field({ label, group, hint, field, problems, children }: FieldProps) {
  const list = field === 'form' ? undefined : problems[field];
  return (
    <div class={`field ${list ? 'invalid' : ''}`}>
      {group ? (
        <fieldset>
          <legend class="label">{label}</legend>
          {children}
        </fieldset>
      ) : (
        <label>
          <span class="label">{label}</span>
          {children}
        </label>
      )}
      {hint && <p class="hint">{hint}</p>}
      <Problems list={list} field={field} />
    </div>
  );
}

function Problems({ list, field }: { list: string[] | undefined; field: FormField }) {
  if (!list?.length) return null;
  return (
    <ul class="problems" data-testid={`error-${field}`}>
      {list.map((m) => (
        <li>{m}</li>
      ))}
    </ul>
  );
}
