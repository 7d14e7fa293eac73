/** Public entry of the credits module: the ledger other modules charge through, and its REST procedures. */
export { creditEventSchemas, creditStream, transactionTypes, type TransactionType } from './events.js';
export { creditsProjection } from './projection.js';
export { packs, packIds, findPack, priceOf, DEFAULT_AUTO_TOPOFF, MAX_TOPOFF_THRESHOLD, type Pack, type PackId, type DurationTarget } from './packs.js';
export {
  openAccount,
  chargeCredits,
  chargeNewReference,
  loadAccount,
  type LoadedAccount,
  refundCredits,
  purchaseCredits,
  recordPayment,
  recordAutoTopoffFailure,
  grantCredits,
  type PaymentRecord,
  configureAutoTopoff,
  PaymentDeclinedError,
  type ChargeInput,
  type ChargeResult,
  type RefundResult,
  type PurchaseResult,
  type CommandOptions,
} from './commands.js';
export { adjustPaymentCredits, type PaymentAdjustment, type PaymentAdjustmentResult } from './payment-adjustments.js';
export { accountTurnsFor, inAccountTransaction, inAccountTurn } from './account-turns.js';
export { getBalance, getAutoTopoff, listTransactions, creditsSpentSince, type CreditTransactionRecord } from './queries.js';
export { toTransaction, type CreditTransaction } from './representation.js';
export {
  grantAtOnceProvider,
  noPaymentsProvider,
  setPaymentProvider,
  paymentProvider,
  PaymentsNotConfiguredError,
  PAYMENTS_NOT_CONFIGURED,
  type PaymentProvider,
  type PaymentResult,
  type ChargeRequest,
  type CheckoutRequest,
  type CheckoutStart,
} from './payment-provider.js';
export { auditCredits, auditAccount, type AccountAudit, type CreditAuditReport } from './audit.js';
export { creditsRouter } from './procedures.js';
