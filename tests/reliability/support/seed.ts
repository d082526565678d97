/** One seed for every random schedule and generated input of a run; set PAYMOUNT_RELIABILITY_SEED to replay or vary it. */
export const SEED = Number(process.env.PAYMOUNT_RELIABILITY_SEED ?? 61121);
