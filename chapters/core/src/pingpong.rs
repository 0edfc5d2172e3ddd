//! A read/write pair for passes that update a field from its previous values: simulations keep
//! each field twice, read one copy and write the other, then swap.

// ANCHOR: pingpong
/// A read/write pair: passes read `read()` and write `write()`, then `swap()` makes the new
/// values the read side. Two copies, because a pass must not read cells it is overwriting.
pub struct PingPong<T> {
    sides: [T; 2],
    read: usize,
}

impl<T> PingPong<T> {
    pub fn new(a: T, b: T) -> Self {
        Self { sides: [a, b], read: 0 }
    }
    pub fn read(&self) -> &T {
        &self.sides[self.read]
    }
    pub fn write(&self) -> &T {
        &self.sides[1 - self.read]
    }
    pub fn swap(&mut self) {
        self.read = 1 - self.read;
    }
}
// ANCHOR_END: pingpong
