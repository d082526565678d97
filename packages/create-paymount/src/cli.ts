#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { create, type CreateIo } from './create';

/** Questions only on a terminal: in CI or a pipe, what the flags leave out is an error, not a hang. */
function terminalQuestions(): CreateIo['ask'] {
  if (!process.stdin.isTTY) return undefined;
  return async (question, choices) => {
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    try {
      const answer = (await prompt.question(`${question}${choices ? ` (${choices.join(', ')})` : ''}: `)).trim();
      return answer === '' && choices ? choices[0]! : answer;
    } finally {
      prompt.close();
    }
  };
}

process.exitCode = await create(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  ask: terminalQuestions(),
  env: process.env,
  cwd: process.cwd(),
});
