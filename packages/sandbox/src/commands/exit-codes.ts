/** The developer commands' exit statuses; site/concepts/sandbox.md lists them. */
export const EXIT_CODES = {
  /** Done; for trigger and resend: the receiver answered 200. */
  ok: 0,
  /** Anything unexpected (the sandbox's internal error, a refusal no other status covers). */
  error: 1,
  /** A bad command line, or input the sandbox refused (unknown event, bad --forward-to, amount). */
  usage: 2,
  /** No paymount sandbox answers at the sandbox URL. */
  unreachable: 3,
  /** The delivery id is not in the sandbox's delivery log. */
  unknownDelivery: 4,
  /** The receiver never answered 200: every attempt failed. */
  notDelivered: 5,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A failure of a command, with the status it exits with and a message that says what to do. */
export class CommandError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}
