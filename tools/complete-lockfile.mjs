#!/usr/bin/env node
// npm leaves an optional platform package out of package-lock.json when the
// registry it installs from does not serve that platform's build; `npm ci`
// then refuses the lock as out of sync. This records each such package as an
// optional entry with the os/cpu/libc its name declares, which is what npm
// itself writes when it can see the package, so `npm ci` skips it on other
// platforms. Run it after any `npm install` that changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony', 'cygwin'];
const OS_ALIASES = { windows: 'win32', win: 'win32', macos: 'darwin' };
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 's390x', 'ppc64', 'loong64', 'mips64el', 'wasm32'];
const CPU_ALIASES = { 64: 'x64', 32: 'ia32', amd64: 'x64', aarch64: 'arm64', x86_64: 'x64', armv7: 'arm', universal: undefined };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.map((p) => OS_ALIASES[p] ?? p).find((p) => OS.includes(p));
  const cpu = parts.map((p) => (p in CPU_ALIASES ? CPU_ALIASES[p] : p)).find((p) => CPU.includes(p));
  const libc = parts.find((p) => p.startsWith('musl')) ? 'musl' : parts.find((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return {
    ...(os ? { os: [os] } : {}),
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(os === 'linux' && libc ? { libc: [libc] } : {}),
  };
}

/** Where npm would place `name` for the package at `from`: the nearest enclosing node_modules that has it, else the root. */
function resolvedAt(from, name) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolvedAt(location, name)) continue;
    packages[`node_modules/${name}`] = { version, optional: true, ...platformOf(name) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} recorded`);
