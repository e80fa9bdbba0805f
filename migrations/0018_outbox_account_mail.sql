-- A new kind of mail, ACCOUNT_CHANGED: the notice that a profile save changed the account's password or e-mail. The
-- CHECK on kind is the table's own (SQLite cannot alter one), so the table is rebuilt: every column (order_status and
-- its CHECK from 0016 too), every row with its id, then the same four indexes as before. Nothing references
-- email_outbox (no foreign key, trigger or view), so the old table drops with foreign keys on, as D1 applies
-- migrations; drizzle-kit's PRAGMA foreign_keys lines are left out (D1 does not let a migration turn them off). The
-- CHECKs name their columns unqualified, not by the table's temporary name. The AUTOINCREMENT sequence follows the
-- copied ids (the shop never deletes an outbox row), so new mails keep counting up from the last.
CREATE TABLE `__new_email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`order_id` integer,
	`user_id` integer,
	`order_status` text,
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
	CONSTRAINT "email_outbox_kind_check" CHECK("kind" IN ('ORDER_PLACED', 'ORDER_STATUS', 'PASSWORD_RESET', 'ACCOUNT_CHANGED')),
	CONSTRAINT "email_outbox_state_check" CHECK("state" IN ('queued', 'sent', 'kept', 'failed')),
	CONSTRAINT "email_outbox_order_status_check" CHECK("order_status" IS NULL OR "order_status" IN ('PENDING', 'CONFIRMED', 'PROCESSING', 'SHIPPED', 'DELIVERED', 'CANCELLED'))
);
--> statement-breakpoint
INSERT INTO `__new_email_outbox`("id", "kind", "to_address", "subject", "text_body", "html_body", "order_id", "user_id", "order_status", "state", "attempts", "last_error", "message_id", "created_at", "sent_at", "next_attempt_at", "locked_until") SELECT "id", "kind", "to_address", "subject", "text_body", "html_body", "order_id", "user_id", "order_status", "state", "attempts", "last_error", "message_id", "created_at", "sent_at", "next_attempt_at", "locked_until" FROM `email_outbox`;--> statement-breakpoint
DROP TABLE `email_outbox`;--> statement-breakpoint
ALTER TABLE `__new_email_outbox` RENAME TO `email_outbox`;--> statement-breakpoint
CREATE INDEX `email_outbox_state_idx` ON `email_outbox` (`state`,`id`);--> statement-breakpoint
CREATE INDEX `email_outbox_order_idx` ON `email_outbox` (`order_id`,`id`);--> statement-breakpoint
CREATE INDEX `email_outbox_user_idx` ON `email_outbox` (`user_id`);--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`next_attempt_at`) WHERE "email_outbox"."state" = 'queued';