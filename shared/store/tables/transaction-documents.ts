import { type RowOf, table, text } from './columns.js';

/** `transaction_documents` (0009_transaction_documents.sql). `account|lt` → the transaction document (shared/contracts/transaction-document.ts), key → value (EmbeddedRocksDB). */
export const transactionDocuments = table('transaction_documents', {
  key: text(),
  doc: text(),
});

export type TransactionDocumentRow = RowOf<typeof transactionDocuments.columns>;
