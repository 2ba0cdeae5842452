/** Prompt × platform cells coloured by sub task status, each opening its answer. */
import { gridOf } from '../progress.js';
import { useT } from '../i18n.js';
import { onLink, paths } from '../router.js';
import type { SubTaskSummary } from '../types.js';

export function StatusGrid({ taskId, list }: { taskId: string; list: SubTaskSummary[] }) {
  const t = useT();
  const grid = gridOf(list);
  return (
    <div class="grid-scroll">
      <table class="status-grid" data-testid="status-grid">
        <thead>
          <tr>
            <th>{t('prompts')}</th>
            {grid.columns.map((c) => (
              <th>
                {c.platform}
                <small>{[c.channel, c.mode].filter(Boolean).join(' · ')}</small>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.prompts.map((prompt) => (
            <tr>
              <th class="prompt" title={prompt}>
                {prompt}
              </th>
              {grid.columns.map((c) => {
                const s = grid.cell(prompt, c.key);
                return (
                  <td class={s ? `cell s-${s.status}` : 'cell'} data-status={s?.status}>
                    {s && (
                      <a href={paths.answer(taskId, s.subTaskId)} onClick={onLink}>
                        {s.status}
                      </a>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
