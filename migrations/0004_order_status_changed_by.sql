ALTER TABLE `orders` ADD `status_changed_by` integer REFERENCES users(id) ON DELETE SET NULL;
