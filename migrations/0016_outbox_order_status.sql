-- The status an order-status mail announces, so that "Send again" on /admin/outbox can send a failed one only while
-- its order still has that status (a failed "on its way" must not reach a customer after "cancelled"). Added in
-- place (drizzle-kit would rebuild the table for the CHECK; a column's own CHECK does the same without a copy).
ALTER TABLE `email_outbox` ADD `order_status` text CONSTRAINT "email_outbox_order_status_check" CHECK(`order_status` IS NULL OR `order_status` IN ('PENDING', 'CONFIRMED', 'PROCESSING', 'SHIPPED', 'DELIVERED', 'CANCELLED'));
--> statement-breakpoint
-- The status mails written before: their subject ends with the status's headline (app/lib/emails.server.ts
-- STATUS_WORDS, lower-cased), one per status. A row no headline matches keeps NULL and is not sent again.
UPDATE `email_outbox` SET `order_status` = CASE
    WHEN `subject` LIKE '%: we are checking your bank slip' THEN 'PENDING'
    WHEN `subject` LIKE '%: your payment is confirmed' THEN 'CONFIRMED'
    WHEN `subject` LIKE '%: we are packing your order' THEN 'PROCESSING'
    WHEN `subject` LIKE '%: your order is on its way' THEN 'SHIPPED'
    WHEN `subject` LIKE '%: your order has been delivered' THEN 'DELIVERED'
    WHEN `subject` LIKE '%: your order has been cancelled' THEN 'CANCELLED'
  END
  WHERE `kind` = 'ORDER_STATUS';
