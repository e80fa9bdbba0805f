-- The back office at scale (issue 16): its lists read one page from an index and count their pages from kept totals.
CREATE TABLE `order_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`order_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_counts` (
	`role` text PRIMARY KEY NOT NULL,
	`user_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Search from the start of a customer's name, e-mail or phone (digits only: spaces, dashes and + left out), newest
-- first within the matches. drizzle-kit cannot write the phone's expression (it splits it at its commas): written here.
CREATE INDEX `orders_customer_name_idx` ON `orders` (lower("customer_name"),`created_at`);--> statement-breakpoint
CREATE INDEX `orders_customer_email_idx` ON `orders` (lower("customer_email"),`created_at`);--> statement-breakpoint
CREATE INDEX `orders_customer_phone_idx` ON `orders` (replace(replace(replace("customer_phone", ' ', ''), '-', ''), '+', ''),`created_at`);--> statement-breakpoint
CREATE INDEX `users_name_idx` ON `users` (lower("name"));--> statement-breakpoint
CREATE INDEX `users_phone_idx` ON `users` (`phone`);--> statement-breakpoint
-- One row for every order ('') and one per status; one for every user ('') and one per role. A status or role added
-- later needs its row here too. Filled from the rows there are, then kept by the triggers below.
INSERT INTO `order_counts` (`status`) VALUES (''), ('PENDING'), ('CONFIRMED'), ('PROCESSING'), ('SHIPPED'), ('DELIVERED'), ('CANCELLED');--> statement-breakpoint
UPDATE `order_counts` SET `order_count` = (SELECT count(*) FROM `orders` WHERE `order_counts`.`status` IN ('', `orders`.`status`));--> statement-breakpoint
INSERT INTO `user_counts` (`role`) VALUES (''), ('ROLE_ADMIN'), ('ROLE_CUSTOMER');--> statement-breakpoint
UPDATE `user_counts` SET `user_count` = (SELECT count(*) FROM `users` WHERE `user_counts`.`role` IN ('', `users`.`role`));--> statement-breakpoint
CREATE TRIGGER `orders_count_insert` AFTER INSERT ON `orders` BEGIN
  UPDATE `order_counts` SET `order_count` = `order_count` + 1 WHERE `status` IN ('', new.status);
END;--> statement-breakpoint
CREATE TRIGGER `orders_count_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `order_counts` SET `order_count` = `order_count` - 1 WHERE `status` IN ('', old.status);
END;--> statement-breakpoint
CREATE TRIGGER `orders_count_status` AFTER UPDATE OF `status` ON `orders` WHEN new.status <> old.status BEGIN
  UPDATE `order_counts` SET `order_count` = `order_count` - 1 WHERE `status` = old.status;
  UPDATE `order_counts` SET `order_count` = `order_count` + 1 WHERE `status` = new.status;
END;--> statement-breakpoint
CREATE TRIGGER `users_count_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `user_counts` SET `user_count` = `user_count` + 1 WHERE `role` IN ('', new.role);
END;--> statement-breakpoint
CREATE TRIGGER `users_count_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `user_counts` SET `user_count` = `user_count` - 1 WHERE `role` IN ('', old.role);
END;--> statement-breakpoint
CREATE TRIGGER `users_count_role` AFTER UPDATE OF `role` ON `users` WHEN new.role <> old.role BEGIN
  UPDATE `user_counts` SET `user_count` = `user_count` - 1 WHERE `role` = old.role;
  UPDATE `user_counts` SET `user_count` = `user_count` + 1 WHERE `role` = new.role;
END;
