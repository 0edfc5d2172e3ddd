pub mod bake;
pub mod bench;
pub mod error_table;
pub mod figures;
pub mod list;
pub mod render;
pub mod smoke_save;
