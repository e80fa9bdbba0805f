-- Sizes (variants): a product has one or more, each with its own stock. Every existing product becomes one
-- "One size" holding its current stock, and every cart line and order line moves to that size: nothing is lost.
CREATE TABLE `product_sizes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`label` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`stock_quantity` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "product_sizes_stock_check" CHECK("stock_quantity" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_sizes_product_label_unique` ON `product_sizes` (`product_id`,`label`);--> statement-breakpoint
CREATE INDEX `product_sizes_product_position_idx` ON `product_sizes` (`product_id`,`position`);--> statement-breakpoint
CREATE INDEX `product_sizes_low_stock_idx` ON `product_sizes` (`stock_quantity`,`product_id`) WHERE "product_sizes"."stock_quantity" <= 3;--> statement-breakpoint
INSERT INTO `product_sizes` (`product_id`, `label`, `position`, `stock_quantity`) SELECT `id`, 'One size', 0, `stock_quantity` FROM `products`;--> statement-breakpoint
-- A product's stock is the sum of its sizes', kept here; anything else that sets it is refused.
CREATE TRIGGER `product_sizes_after_insert` AFTER INSERT ON `product_sizes` BEGIN
  UPDATE `products` SET `stock_quantity` = (SELECT coalesce(sum(`stock_quantity`), 0) FROM `product_sizes` WHERE `product_id` = new.product_id) WHERE `id` = new.product_id;
END;
--> statement-breakpoint
CREATE TRIGGER `product_sizes_after_update` AFTER UPDATE OF `stock_quantity`, `product_id` ON `product_sizes` BEGIN
  UPDATE `products` SET `stock_quantity` = (SELECT coalesce(sum(`stock_quantity`), 0) FROM `product_sizes` WHERE `product_id` = `products`.`id`) WHERE `id` IN (old.product_id, new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_sizes_after_delete` AFTER DELETE ON `product_sizes` BEGIN
  UPDATE `products` SET `stock_quantity` = (SELECT coalesce(sum(`stock_quantity`), 0) FROM `product_sizes` WHERE `product_id` = old.product_id) WHERE `id` = old.product_id;
END;
--> statement-breakpoint
CREATE TRIGGER `products_stock_is_sum_of_sizes` BEFORE UPDATE OF `stock_quantity` ON `products`
WHEN new.stock_quantity <> (SELECT coalesce(sum(`stock_quantity`), 0) FROM `product_sizes` WHERE `product_id` = new.id) BEGIN
  SELECT RAISE(ABORT, 'products.stock_quantity is the sum of its sizes: change the sizes');
END;
--> statement-breakpoint
CREATE TABLE `__new_cart_items` (
	`user_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`size_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `size_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`size_id`) REFERENCES `product_sizes`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "cart_items_quantity_check" CHECK("quantity" >= 1)
);
--> statement-breakpoint
INSERT INTO `__new_cart_items` (`user_id`, `product_id`, `size_id`, `quantity`, `created_at`)
  SELECT c.`user_id`, c.`product_id`, s.`id`, c.`quantity`, c.`created_at` FROM `cart_items` c JOIN `product_sizes` s ON s.`product_id` = c.`product_id`;--> statement-breakpoint
DROP TABLE `cart_items`;--> statement-breakpoint
ALTER TABLE `__new_cart_items` RENAME TO `cart_items`;--> statement-breakpoint
CREATE INDEX `cart_items_product_idx` ON `cart_items` (`product_id`);--> statement-breakpoint
CREATE INDEX `cart_items_size_idx` ON `cart_items` (`size_id`);--> statement-breakpoint
ALTER TABLE `order_items` ADD `size_id` integer REFERENCES `product_sizes`(`id`) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `order_items` ADD `size_label` text DEFAULT 'One size' NOT NULL;--> statement-breakpoint
UPDATE `order_items` SET `size_id` = (SELECT s.`id` FROM `product_sizes` s WHERE s.`product_id` = `order_items`.`product_id`);--> statement-breakpoint
CREATE INDEX `order_items_size_idx` ON `order_items` (`size_id`);--> statement-breakpoint
-- 0005's trigger, per size: cancelling puts each line's stock back into its size, leaving CANCELLED takes it again
-- (the sizes' stock CHECK fails the statement when it is no longer there). A line whose size was removed since
-- has nowhere to go back to.
DROP TRIGGER `orders_after_status_change`;--> statement-breakpoint
CREATE TRIGGER `orders_after_status_change` AFTER UPDATE OF `status` ON `orders` WHEN new.status <> old.status BEGIN
  INSERT INTO `order_status_history` (`order_id`, `status`, `changed_by`) VALUES (new.id, new.status, new.status_changed_by);
  UPDATE `product_sizes`
    SET `stock_quantity` = `stock_quantity` + (SELECT sum(i.quantity) FROM `order_items` i WHERE i.order_id = new.id AND i.size_id = `product_sizes`.id)
    WHERE new.status = 'CANCELLED' AND `id` IN (SELECT `size_id` FROM `order_items` WHERE `order_id` = new.id);
  UPDATE `product_sizes`
    SET `stock_quantity` = `stock_quantity` - (SELECT sum(i.quantity) FROM `order_items` i WHERE i.order_id = new.id AND i.size_id = `product_sizes`.id)
    WHERE old.status = 'CANCELLED' AND `id` IN (SELECT `size_id` FROM `order_items` WHERE `order_id` = new.id);
END;
