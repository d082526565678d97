// Node loads its fetch (a bundled undici) on first use, which takes about 100 ms on a busy machine: done
// here, so that the first attempt of a test with a short per-attempt limit does not time out for it.
await fetch('data:,').then((response) => response.text());

export {};
