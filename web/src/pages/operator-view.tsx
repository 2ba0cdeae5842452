/**
 * Operator pages (`/api/business/operator/*`, role operator): crawler nodes by
 * region with capacity and running work, proxy ports and their health,
 * web-channel accounts, and the callback deliveries of any task.
 */
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import type { CityInfoRecord, Me } from '../types.js';
import { DataTable } from '../components/data-table.js';
import { useT } from '../i18n.js';

type Row = Record<string, unknown>;

interface NodeRow extends Row {
  nodeId: string;
  regions: string[];
}

/** Nodes under each region they serve; a node without regions serves the default strategy. */
function byRegion(nodes: NodeRow[]): [string, NodeRow[]][] {
  const groups = new Map<string, NodeRow[]>();
  for (const n of nodes) {
    for (const region of n.regions.length ? n.regions : ['—']) {
      groups.set(region, [...(groups.get(region) ?? []), n]);
    }
  }
  return [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]));
}

/** `310100` → `上海市 上海市`, `310000` → `上海市`, from the ports' records. */
function regionNames(records: CityInfoRecord[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const r of records) {
    r.regionCode.forEach((code, i) => {
      names.set(
        code,
        i === 0 ? r.province : r.city === r.province ? r.city : `${r.province} ${r.city}`,
      );
    });
  }
  return names;
}

/** What a signed-in user without the operator role sees here: the role needed and how it is granted. */
export function OperatorOnly({ me }: { me: Me }) {
  const t = useT();
  return (
    <section class="card" data-testid="operator-only">
      <h1>{t('operator')}</h1>
      <p>{t('operatorOnly', { name: me.name, userId: me.userId, role: me.role })}</p>
      <p>{t('operatorGrant')}</p>
      <pre>
        <code>npm run admin -- set-role --user {me.userId} --role operator</code>
      </pre>
    </section>
  );
}

export function OperatorView() {
  const t = useT();
  const [nodes, setNodes] = useState<NodeRow[] | null>(null);
  const [ports, setPorts] = useState<Row[] | null>(null);
  const [accounts, setAccounts] = useState<Row[] | null>(null);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const [taskId, setTaskId] = useState('');
  const [delivery, setDelivery] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (e: Error) => setError(e.message);

  useEffect(() => {
    get<NodeRow[]>(PATHS.OPERATOR_NODES).then(setNodes, fail);
    get<Row[]>(PATHS.OPERATOR_PORTS).then(setPorts, fail);
    get<Row[]>(PATHS.OPERATOR_ACCOUNTS).then(setAccounts, fail);
    // Region names come with the public city lookup; a code without a port keeps its code only.
    get<CityInfoRecord[]>(PATHS.CITY_INFO).then(
      (records) => setNames(regionNames(records)),
      () => undefined,
    );
  }, []);

  const showCallbacks = (e: Event) => {
    e.preventDefault();
    setDelivery(null);
    get<Row>(pathTo(PATHS.OPERATOR_TASK_CALLBACKS, { taskId: taskId.trim() })).then(
      setDelivery,
      fail,
    );
  };

  return (
    <section>
      <h1>{t('operator')}</h1>
      {error && <p class="error">{error}</p>}
      <section class="card">
        <h2>{t('nodes')}</h2>
        {nodes === null && <p>{t('loading')}</p>}
        {nodes?.length === 0 && <p class="muted">{t('none')}</p>}
        {nodes &&
          byRegion(nodes).map(([region, list]) => (
            <div>
              <h3>
                {t('regions')}: {names.get(region) ?? ''} {region}
              </h3>
              <DataTable
                rows={list}
                testId="nodes"
                columns={[
                  'nodeId',
                  'capacity',
                  'running',
                  'activePorts',
                  'ports',
                  'channels',
                  'platforms',
                  'available',
                ]}
              />
            </div>
          ))}
      </section>
      <section class="card">
        <h2>{t('ports')}</h2>
        {ports && <DataTable rows={ports} testId="ports" />}
      </section>
      <section class="card">
        <h2>{t('accounts')}</h2>
        {accounts && <DataTable rows={accounts} testId="accounts" />}
      </section>
      <section class="card">
        <h2>{t('callbacks')}</h2>
        <form class="row wrap" onSubmit={showCallbacks}>
          <label class="inline grow">
            {t('taskId')}
            <input
              name="taskId"
              value={taskId}
              onInput={(e) => setTaskId(e.currentTarget.value)}
              required
            />
          </label>
          <button type="submit">{t('show')}</button>
        </form>
        {delivery && (
          <>
            <DataTable
              rows={[delivery]}
              testId="delivery"
              columns={[
                'status',
                'url',
                'attemptCount',
                'maxAttempts',
                'nextAttemptAt',
                'finishedAt',
              ]}
            />
            <DataTable rows={(delivery.attempts as Row[]) ?? []} testId="attempts" />
          </>
        )}
      </section>
    </section>
  );
}
