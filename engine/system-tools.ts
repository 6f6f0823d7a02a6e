import { execa } from 'execa';

/** The OS programs the product runs, the Debian package that provides each, and what lacks without it. */
export const SYSTEM_TOOLS = [
  { command: 'ffmpeg', pkg: 'ffmpeg', needed: 'relays, encodings and every media job' },
  { command: 'ffprobe', pkg: 'ffmpeg', needed: 'media info, the media checker and the keyframe tool' },
  { command: 'ping', pkg: 'iputils-ping', needed: 'the Ping tool' },
  { command: 'mtr', pkg: 'mtr-tiny', needed: 'the MTR tool' },
  { command: 'nft', pkg: 'nftables', needed: 'the firewall' },
  { command: 'srt-live-transmit', pkg: 'srt-tools', needed: 'SRT statistics (SRT still works through ffmpeg\'s libsrt)' },
] as const;

async function has(command: string): Promise<boolean> {
  const result = await execa('sh', ['-c', 'command -v "$1"', 'sh', command], { reject: false });
  return result.exitCode === 0;
}

/**
 * Make sure the OS tools are there: install the missing ones with apt-get when this process may
 * (root on Debian/Ubuntu), otherwise report the exact command and what will not work until then.
 */
export async function checkSystemTools(options: { install?: boolean } = {}): Promise<{ missing: string[]; report: string[] }> {
  const report: string[] = [];
  let missing = [];
  for (const tool of SYSTEM_TOOLS) if (!(await has(tool.command))) missing.push(tool);
  if (missing.length === 0) return { missing: [], report };
  const packages = [...new Set(missing.map((t) => t.pkg))];
  const isRoot = process.getuid?.() === 0;
  const canApt = await has('apt-get');
  if ((options.install ?? true) && isRoot && canApt) {
    report.push(`installing ${packages.join(' ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = await execa('apt-get', ['update'], { reject: false, env });
    const install = await execa('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { reject: false, env });
    if (update.exitCode !== 0 || install.exitCode !== 0) report.push(`apt-get failed: ${(install.stderr || update.stderr).split('\n').slice(-3).join(' ')}`);
    const still = [];
    for (const tool of missing) if (!(await has(tool.command))) still.push(tool);
    missing = still;
  }
  if (missing.length) {
    const stillPackages = [...new Set(missing.map((t) => t.pkg))];
    report.push(`missing OS tools: ${missing.map((t) => t.command).join(', ')}. Install them with:`);
    report.push(`  sudo apt-get install -y ${stillPackages.join(' ')}`);
    for (const tool of missing) report.push(`  until then, without ${tool.command}: no ${tool.needed}`);
  }
  return { missing: missing.map((t) => t.command), report };
}
