/**
 * The VIP module's address on Initia mainnet (interwoven-1). Testnet addresses
 * differ between sources.
 */
export const MAINNET_VIP_MODULE_ADDRESS =
  "0x3a886b32a802582f2e446e74d4a24d1d7ed01adf46d2a8f65c5723887e708789";

/**
 * The Ignition module id and future id under which the scoring contract is
 * deployed.
 */
export const IGNITION_MODULE_ID = "VipScore";
export const IGNITION_FUTURE_ID = "VipScore#VipScore";

/** Seconds a scoring policy may run unless told (README: the policy's bounds). */
export const DEFAULT_POLICY_TIMEOUT_SECONDS = 300;
/** Memory, in MB, a scoring policy's engine may hold unless told. */
export const DEFAULT_POLICY_MEMORY_MB = 2048;
/** The longest time bound a policy may be given: a day (a timer cannot wait much longer). */
export const MAX_POLICY_TIMEOUT_SECONDS = 86_400;
/** The largest memory bound a policy may be given, in MB. */
export const MAX_POLICY_MEMORY_MB = 1_048_576;
