// A shipped SQL file, imported as its text (Vite's `?raw`; the build's esbuild plugin does the same).
declare module '*.sql?raw' {
  const text: string;
  export default text;
}
