// Order-preserving u32 encoding of f32, so a range can be reduced with atomicMin / atomicMax:
// for any finite a < b, encode(a) < encode(b) as unsigned integers. Used for views whose display
// range is the field's own min / max, computed on the GPU (no readback before display).
// The initial min slot is 0xffffffff and the max slot 0; both decode to NaN ("no value yet").

// ANCHOR: range_encode
fn range_encode(v: f32) -> u32 {
    let b = bitcast<u32>(v);
    return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

fn range_decode(u: u32) -> f32 {
    return bitcast<f32>(select(~u, u & 0x7fffffffu, (u & 0x80000000u) != 0u));
}
// ANCHOR_END: range_encode
