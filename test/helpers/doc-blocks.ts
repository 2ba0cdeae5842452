/**
 * The fenced code blocks of a Markdown page (pure), for the test that runs the
 * documentation's shell blocks. A block's info string is the text after its
 * opening fence: `sh` is run, `sh norun` is not (and says why in a comment).
 */
export interface DocBlock {
  /** 1-based line of the opening fence. */
  line: number;
  info: string;
  /** The lines between the fences, without the fence's indentation. */
  text: string;
}

export function fencedBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let open: { line: number; info: string; indent: number; fence: string; lines: string[] } | null =
    null;
  markdown.split('\n').forEach((raw, i) => {
    const fence = /^( *)(`{3,}|~{3,})(.*)$/.exec(raw);
    if (open) {
      if (fence && fence[2]!.startsWith(open.fence) && fence[3]!.trim() === '') {
        blocks.push({ line: open.line, info: open.info, text: open.lines.join('\n') });
        open = null;
      } else {
        open.lines.push(raw.slice(Math.min(open.indent, raw.length - raw.trimStart().length)));
      }
    } else if (fence) {
      open = {
        line: i + 1,
        info: fence[3]!.trim(),
        indent: fence[1]!.length,
        fence: fence[2]!,
        lines: [],
      };
    }
  });
  return blocks;
}

/** Shells whose blocks must be marked `sh` or `sh norun`, so none escapes the runner unseen. */
export const SHELL_INFO = /^(sh|bash|shell|zsh|console|shell-session)\b/;
