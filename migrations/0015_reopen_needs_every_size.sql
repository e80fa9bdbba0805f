-- Reopening a cancelled order takes its pairs from stock again (the status trigger of migration 0006), but only from
-- sizes that still exist: a line whose size was removed, or whose product was deleted, has lost its size_id, and the
-- trigger would skip it, confirming pairs the shop no longer has. API.md: moving out of CANCELLED answers 409 when the
-- stock is no longer there. The abort fails the status change's whole batch (no history row, no mail).
CREATE TRIGGER `orders_reopen_needs_every_size` BEFORE UPDATE OF `status` ON `orders`
WHEN old.status = 'CANCELLED' AND new.status <> 'CANCELLED'
  AND EXISTS (SELECT 1 FROM `order_items` WHERE `order_id` = new.id AND `size_id` IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'order_reopen: a line''s size is no longer sold');
END;
