/** The dashboard shell: language, session, the signed-in user, the header and the page. */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { get, whenUnauthorized } from './api.js';
import { PATHS } from '../../services/shared/contracts/http-paths.js';
import { initialLang, keepLang, LangContext, translator, useT, type Lang } from './i18n.js';
import { navigate, onLink, paths, useRoute, type Route } from './router.js';
import { session } from './session.js';
import type { Me } from './types.js';
import { SignIn } from './pages/sign-in.js';
import { TaskList } from './pages/task-list.js';
import { NewBatch } from './pages/new-batch.js';
import { TaskView } from './pages/task-view.js';
import { AnswerView } from './pages/answer-view.js';
import { OperatorOnly, OperatorView } from './pages/operator-view.js';
import { CollectorsView } from './pages/collectors-view.js';
import { MonitorList } from './pages/monitor-list.js';
import { MonitorPage } from './pages/monitor-view.js';
import './styles/base.css';
import './styles/views.css';
import './styles/monitors.css';

function App() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [me, setMe] = useState<Me | null>(null);
  const [signedIn, setSignedIn] = useState(() => session.token() !== null);
  const route = useRoute();
  const t = useMemo(() => translator(lang), [lang]);

  useEffect(() => keepLang(lang), [lang]);
  useEffect(() => {
    whenUnauthorized(() => setSignedIn(false));
  }, []);
  useEffect(() => {
    if (!signedIn) {
      setMe(null);
      if (route.page !== 'signin') navigate(paths.signin(), true);
      return;
    }
    get<Me>(PATHS.ME).then(setMe, () => setMe(null));
  }, [signedIn]);

  const signOut = () => {
    session.clear();
    setSignedIn(false);
  };

  return (
    <LangContext.Provider value={{ lang, t }}>
      <header class="top">
        <a class="brand" href={paths.tasks()} onClick={onLink}>
          {t('appName')}
        </a>
        {signedIn && (
          <nav>
            <a href={paths.tasks()} onClick={onLink}>
              {t('tasks')}
            </a>
            <a href={paths.newBatch()} onClick={onLink}>
              {t('newBatch')}
            </a>
            <a href={paths.monitors()} onClick={onLink} data-testid="nav-monitors">
              {t('monitors')}
            </a>
            {me?.role === 'operator' && (
              <a href={paths.operator()} onClick={onLink} data-testid="nav-operator">
                {t('operator')}
              </a>
            )}
            {me?.role === 'operator' && (
              <a href={paths.collectors()} onClick={onLink} data-testid="nav-collectors">
                {t('collectors')}
              </a>
            )}
          </nav>
        )}
        <div class="spacer" />
        {me && <span class="who">{me.name}</span>}
        <button
          type="button"
          class="link"
          onClick={() => setLang(lang === 'en' ? 'zh' : 'en')}
          data-testid="lang"
        >
          {t('language')}
        </button>
        {signedIn && (
          <button type="button" class="link" onClick={signOut} data-testid="sign-out">
            {t('signOut')}
          </button>
        )}
      </header>
      <main>
        {signedIn ? (
          <Page route={route} me={me} />
        ) : (
          <SignIn
            onSignedIn={() => {
              setSignedIn(true);
              navigate(paths.tasks(), true);
            }}
          />
        )}
      </main>
    </LangContext.Provider>
  );
}

function Page({ route, me }: { route: Route; me: Me | null }) {
  switch (route.page) {
    case 'new':
      return <NewBatch />;
    case 'task':
      return <TaskView taskId={route.taskId} />;
    case 'monitors':
      return <MonitorList />;
    case 'monitor':
      return <MonitorPage monitorId={route.monitorId} />;
    case 'answer':
      return <AnswerView taskId={route.taskId} subTaskId={route.subTaskId} />;
    case 'operator':
      if (me === null) return <Loading />;
      return me.role === 'operator' ? <OperatorView /> : <OperatorOnly me={me} />;
    case 'collectors':
      if (me === null) return <Loading />;
      return me.role === 'operator' ? <CollectorsView /> : <OperatorOnly me={me} />;
    default:
      return <TaskList />;
  }
}

function Loading() {
  const t = useT();
  return <p>{t('loading')}</p>;
}

render(<App />, document.getElementById('app')!);
