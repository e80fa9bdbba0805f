-- POST /api/orders's optional Idempotency-Key header: the key is kept with the order it placed, and the unique index
-- makes it one order per customer and key, even for two requests at once (the second's batch fails on the index and
-- answers the first's order: app/services/orders.server.ts placeOrder). Orders placed without a key keep NULL.
ALTER TABLE `orders` ADD `idempotency_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_user_idempotency_key_unique` ON `orders` (`user_id`,`idempotency_key`);