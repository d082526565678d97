#!/usr/bin/env node
import { writeCertificateFile, type CertificateFile } from './cert-file';
import { CLI_USAGE, parseCliArgs, type CliSettings } from './cli-args';
import { COMMAND_USAGE, COMMANDS, parseCommandArgs, type CommandArgs, type CommandName } from './commands/args';
import { EXIT_CODES } from './commands/exit-codes';
import { runCommand } from './commands/run';
import { startSandbox, type Sandbox } from './server';

function connectionInfo(sandbox: Sandbox, certFile: string | undefined) {
  return {
    url: sandbox.url,
    dashboard: sandbox.dashboardUrl,
    appId: sandbox.appId,
    merchantId: sandbox.merchantId,
    testApiKey: sandbox.testApiKey,
    productionApiKey: sandbox.productionApiKey,
    webhookSecret: sandbox.webhookSecret,
    gatewayId: sandbox.gatewayId,
    ...(certFile ? { caFile: certFile } : {}),
  };
}

function isCommand(word: string | undefined): word is CommandName {
  return (COMMANDS as readonly string[]).includes(word ?? '');
}

/** `paymount-sandbox <command> ...`: talks to a running sandbox, then exits with the command's status. */
async function command(name: CommandName, argv: readonly string[]): Promise<void> {
  let args: CommandArgs;
  try {
    args = parseCommandArgs(name, argv, process.env);
  } catch (error) {
    process.stderr.write(`paymount-sandbox ${name}: ${error instanceof Error ? error.message : String(error)}\n\n${COMMAND_USAGE[name]}`);
    process.exitCode = EXIT_CODES.usage;
    return;
  }
  process.exitCode = await runCommand(args, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  if (isCommand(first)) return command(first, rest);
  let settings: CliSettings;
  try {
    settings = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${CLI_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (settings.help) {
    process.stdout.write(CLI_USAGE);
    return;
  }
  // The CLI prints its own, fuller start-up text.
  const sandbox = await startSandbox({ ...settings.options, announce: false });
  let certFile: CertificateFile | undefined;
  if (sandbox.ca) {
    try {
      certFile = writeCertificateFile(sandbox.ca, settings.certFile);
    } catch (error) {
      // A listening server would keep the process alive after the error is reported.
      await sandbox.close();
      throw error;
    }
  }
  // Listening for signals before the URL is printed: whoever reads it may stop the sandbox at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (!settings.json) process.stdout.write(`\n${signal}: stopping the sandbox\n`);
    sandbox.close().then(
      () => {
        certFile?.remove();
        process.exitCode = 0;
      },
      (error: unknown) => {
        process.stderr.write(`could not stop cleanly: ${String(error)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const info = connectionInfo(sandbox, certFile?.path);
  if (settings.json) {
    process.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    const width = Math.max(...Object.keys(info).map((key) => key.length)) + 2;
    const lines = Object.entries(info).map(([key, value]) => `  ${key.padEnd(width)}${value}`);
    process.stdout.write(`paymount sandbox listening on ${sandbox.url}\n${lines.join('\n')}\nPress Ctrl+C to stop.\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`paymount-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
