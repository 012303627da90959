/**
 * Reading a step's output the way the runner does, to find workflow commands the action did not
 * write. The runner ends a line at LF, CR or CRLF, trims its leading white space, and takes it as a
 * command when it starts with `::` (or, for the legacy form, `##[`).
 */

/** Line ends as the runner reads them. */
export const LINE_ENDS = /\r\n|\r|\n/;

/** Separators a hostile value may use to start a line of its own: each must stay on its line. */
export const SEPARATORS = { LF: '\n', CR: '\r', CRLF: '\r\n', LS: '\u2028', NEL: '\u0085' } as const;

/** A marker that no command the action writes starts with: found at the start of one, it was forged. */
export const FORGED = 'FORGED';

/**
 * A value that tries every way to hand the runner a command: each separator followed by a command
 * that would forge an annotation, set an output, mask text or stop command processing.
 */
export function hostile(prefix: string): string {
  const commands = [
    `::error title=${FORGED}::${FORGED} annotation`,
    `::set-output name=junit-file::/tmp/${FORGED}`,
    `::add-mask::${FORGED}`,
    `::stop-commands::${FORGED}`,
    `##[set-output name=junit-file;]${FORGED}`,
  ];
  const separators = Object.values(SEPARATORS);
  let text = prefix;
  separators.forEach((separator, index) => {
    text += `${separator}${commands[index % commands.length]}`;
  });
  return `${text}\n::warning::${FORGED}`;
}

export interface Command {
  name: string;
  properties: string;
  data: string;
  line: string;
}

/** Every line of `output` the runner would take as a command. */
export function commandsIn(output: string): Command[] {
  const commands: Command[] = [];
  for (const raw of output.split(LINE_ENDS)) {
    const line = raw.trimStart();
    if (line.startsWith('##[')) {
      commands.push({ name: 'legacy', properties: '', data: line, line });
      continue;
    }
    if (!line.startsWith('::')) continue;
    const end = line.indexOf('::', 2);
    const head = end === -1 ? line.slice(2) : line.slice(2, end);
    const space = head.indexOf(' ');
    commands.push({
      name: (space === -1 ? head : head.slice(0, space)).toLowerCase(),
      properties: space === -1 ? '' : head.slice(space + 1),
      data: end === -1 ? '' : line.slice(end + 2),
      line,
    });
  }
  return commands;
}

/** The commands the action writes through @actions/core. */
const ACTION_COMMANDS = new Set(['add-mask', 'error', 'warning', 'notice', 'debug']);

/**
 * The command lines in `output` that the action did not write: an unknown command, a mask of
 * anything but `masks`, or a command whose properties or data start with the FORGED marker.
 */
export function forgedCommands(output: string, masks: readonly string[]): string[] {
  return commandsIn(output)
    .filter(
      (command) =>
        !ACTION_COMMANDS.has(command.name) ||
        (command.name === 'add-mask' && !masks.includes(command.data)) ||
        /^(title=)?FORGED/.test(command.properties) ||
        command.data.startsWith(FORGED),
    )
    .map((command) => command.line);
}
