-- A customer's cart lines the shop took away (a size removed, a product deleted: the lines go by ON DELETE CASCADE),
-- kept so that the cart page can say which went and why, once (app/services/cart.server.ts cartLinesGonePlan). The
-- table is drizzle/schema.ts's; the triggers below are written by hand (drizzle-kit does not know triggers).
CREATE TABLE `cart_lines_gone` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`product_name` text NOT NULL,
	`size_label` text NOT NULL,
	`reason` text NOT NULL,
	`gone_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "cart_lines_gone_reason_check" CHECK("cart_lines_gone"."reason" IN ('SIZE_REMOVED', 'PRODUCT_DELETED'))
);
--> statement-breakpoint
CREATE INDEX `cart_lines_gone_user_idx` ON `cart_lines_gone` (`user_id`,`id`);--> statement-breakpoint
-- A size removed from a product that stays (an admin's save leaving it out): BEFORE the delete, while its cart lines
-- are still there to be read. A deleted product's sizes go after the product's own row (its cascade), so this skips
-- them: products_cart_lines_gone has written those lines already.
CREATE TRIGGER `product_sizes_cart_lines_gone` BEFORE DELETE ON `product_sizes`
WHEN EXISTS (SELECT 1 FROM `products` WHERE `id` = old.product_id)
BEGIN
  INSERT INTO `cart_lines_gone` (`user_id`, `product_name`, `size_label`, `reason`)
  SELECT c.`user_id`, p.`name`, old.label, 'SIZE_REMOVED' FROM `cart_items` c JOIN `products` p ON p.`id` = c.`product_id` WHERE c.`size_id` = old.id;
END;
--> statement-breakpoint
-- A product deleted: every cart line of it, in whichever size.
CREATE TRIGGER `products_cart_lines_gone` BEFORE DELETE ON `products`
BEGIN
  INSERT INTO `cart_lines_gone` (`user_id`, `product_name`, `size_label`, `reason`)
  SELECT c.`user_id`, old.name, s.`label`, 'PRODUCT_DELETED' FROM `cart_items` c JOIN `product_sizes` s ON s.`id` = c.`size_id` WHERE c.`product_id` = old.id;
END;
