//! Chapter 6's answer keys: each reads its number from the page's "Try this" and computes it
//! from the chapter's CPU reference or the core.

#[allow(unused_imports)]
use super::{close, numbers_after, page_answer};
