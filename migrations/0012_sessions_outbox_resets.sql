-- Sessions ended on the server: each token carries the user's session version (claim `sv`) and is accepted only while
-- it matches. Every user starts at 0, and a token issued before this migration (no `sv`) counts as version 0, so the
-- sessions open at deploy time keep working until that user's next logout or password change.
ALTER TABLE `users` ADD `session_version` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`order_id` integer,
	`user_id` integer,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`message_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`sent_at` integer,
	`next_attempt_at` integer NOT NULL,
	`locked_until` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "email_outbox_kind_check" CHECK("email_outbox"."kind" IN ('ORDER_PLACED', 'ORDER_STATUS', 'PASSWORD_RESET')),
	CONSTRAINT "email_outbox_state_check" CHECK("email_outbox"."state" IN ('queued', 'sent', 'kept', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `email_outbox_state_idx` ON `email_outbox` (`state`,`id`);--> statement-breakpoint
CREATE INDEX `email_outbox_order_idx` ON `email_outbox` (`order_id`,`id`);--> statement-breakpoint
CREATE INDEX `email_outbox_user_idx` ON `email_outbox` (`user_id`);--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`next_attempt_at`) WHERE "email_outbox"."state" = 'queued';--> statement-breakpoint
CREATE TABLE `password_resets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_resets_token_hash_unique` ON `password_resets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`);