/**
 * Platforms from the catalogue (`GET …/platforms`): per platform, a checkbox
 * and a mode for each of its channels (a batch may ask one platform over both),
 * and the service's verdict on that channel for the chosen region, with what
 * is missing when a submission to it would be refused.
 */
import { verdictText, type PlatformChoice } from '../batch-form.js';
import { useT } from '../i18n.js';
import type { PlatformInfo } from '../types.js';

interface Props {
  platforms: PlatformInfo[];
  regionCode: string;
  choices: PlatformChoice[];
  onChange: (choices: PlatformChoice[]) => void;
}

export function PlatformPicker({ platforms, regionCode, choices, onChange }: Props) {
  const t = useT();
  const same = (c: PlatformChoice, platform: string, channel: string) =>
    c.platform === platform && c.channel === channel;
  const update = (platform: string, channel: string, next: PlatformChoice | null) => {
    const rest = choices.filter((c) => !same(c, platform, channel));
    const order = platforms.map((p) => p.platform);
    onChange(
      (next ? [...rest, next] : rest).sort(
        (a, b) =>
          order.indexOf(a.platform) - order.indexOf(b.platform) ||
          a.channel.localeCompare(b.channel),
      ),
    );
  };

  return (
    <div class="platforms">
      {platforms.map((p) => (
        <div
          class={`platform ${choices.some((c) => c.platform === p.platform) ? 'on' : ''}`}
          data-testid={`platform-${p.platform}`}
        >
          <strong>{p.label}</strong>
          {Object.entries(p.channels).map(([channel, modes]) => {
            const choice = choices.find((c) => same(c, p.platform, channel));
            const verdict = p.availability[channel as keyof typeof p.availability];
            const { state, missing } = verdictText(verdict, regionCode, t);
            return (
              <div class="channel" data-testid={`channel-${p.platform}-${channel}`}>
                <label class="inline">
                  <input
                    type="checkbox"
                    name={`use-${p.platform}-${channel}`}
                    checked={!!choice}
                    onChange={(e) =>
                      update(
                        p.platform,
                        channel,
                        e.currentTarget.checked
                          ? { platform: p.platform, channel, mode: modes[0] ?? 'standard' }
                          : null,
                      )
                    }
                  />
                  {channel}
                  {channel === p.channel && ' *'}
                </label>
                <span class={`avail ${verdict?.available === false ? 'off' : ''}`}>{state}</span>
                <select
                  aria-label={`${p.label} ${channel} ${t('mode')}`}
                  name={`mode-${p.platform}-${channel}`}
                  value={choice?.mode ?? modes[0]}
                  disabled={!choice}
                  onChange={(e) =>
                    update(p.platform, channel, { ...choice!, mode: e.currentTarget.value })
                  }
                >
                  {modes.map((m) => (
                    <option value={m}>{m}</option>
                  ))}
                </select>
                {missing && (
                  <small class="missing" title={verdict?.reason ?? undefined}>
                    {missing}
                  </small>
                )}
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
