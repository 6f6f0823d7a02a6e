import { Option, type Command } from 'commander';
import { createElement } from 'react';
import { contextOf } from '../context.ts';
import { CliError, printJson, terminalWidth } from '../output.ts';
import { sortRows, TopFeed, uptimeAt, type TopSnapshot, type TopSort } from '../top-feed.ts';

/**
 * `mediaplane top`: the relays and encodings that are on, with status, CPU, RSS, bitrates,
 * restarts and uptime, kept live from the event stream; `--once` prints one snapshot.
 */

interface TopOptions {
  once?: boolean;
  json?: boolean;
  sort: TopSort;
}

/** One snapshot as JSON: the rows as the table shows them, with the raw figures (bytes, bits/s, seconds). */
export function snapshotJson(snapshot: TopSnapshot, sort: TopSort, now: number) {
  return {
    at: new Date(now).toISOString(),
    sort,
    counts: snapshot.counts,
    hidden: snapshot.hidden,
    jobs: sortRows(snapshot.rows, sort).map(({ readAt: _readAt, ...row }) => {
      const uptime = uptimeAt({ ...row, readAt: _readAt }, now);
      return { ...row, uptimeSeconds: uptime === null ? null : Math.floor(uptime) };
    }),
  };
}

export function registerTopCommand(program: Command): void {
  program
    .command('top')
    .description('A live view of the relays and encodings that are on: status, CPU, RSS, bitrate in/out, restarts, uptime. Keys: c CPU, m RSS, n name, q quit')
    .addOption(new Option('--sort <key>', 'the first sort: cpu, rss or name').choices(['cpu', 'rss', 'name']).default('cpu'))
    .option('--once', 'print one snapshot and exit (for scripts)')
    .option('--json', 'with --once: print the snapshot as JSON')
    .action(async (options: TopOptions, command: Command) => {
      if (options.json && !options.once) throw new CliError('INVALID_OPTIONS', '--json needs --once: the live view is for a terminal');
      const { client, target } = contextOf(command);
      const feed = new TopFeed(client);
      await feed.refresh();
      if (options.once) {
        const now = Date.now();
        if (options.json) return printJson(snapshotJson(feed.snapshot(), options.sort, now));
        const [{ renderToString }, { TopTable }] = await Promise.all([import('ink'), import('../ui/TopView.tsx')]);
        const text = renderToString(createElement(TopTable, { snapshot: feed.snapshot(), sort: options.sort, now, maxWidth: terminalWidth() }), { columns: terminalWidth() ?? 1000 });
        process.stdout.write(`${text.split('\n').map((line) => line.trimEnd()).join('\n')}\n`);
        return;
      }
      const [{ render }, { TopView }] = await Promise.all([import('ink'), import('../ui/TopView.tsx')]);
      const listening = feed.listen();
      const app = render(createElement(TopView, { feed, url: target.url, initialSort: options.sort }));
      try {
        await app.waitUntilExit();
      } finally {
        await feed.close();
        await listening;
      }
    });
}
