//! BC7's eight modes, each from a block built field by field and texels
//! worked out by hand: mode 6 is in `formats_bc.rs`, the other seven here.
//!
//! The rules are the D3D11.3 functional specification's (19.5.14: endpoint
//! P-bits, shifting each component's MSB to bit 7 and replicating it into
//! the low bits, `((64 - w)·e0 + w·e1 + 32) >> 6` with the 2-, 3- and 4-bit
//! weight tables, rotation swapping alpha with r, g or b). The field order
//! (partition, rotation, index selection, colour, alpha, P-bits, primary
//! then secondary indices), the partition tables and the anchor indices,
//! which the D3D specification gives only as pictures, are Khronos'
//! `ARB_texture_compression_bptc` (Table.M, Table.P2, Table.P3, Table.A2,
//! Table.A3a, Table.A3b); the format is the same one.

use dxjit_runtime::format::Format;

/// Packs `(value, bits)` fields after mode `mode`'s bits, least
/// significant first, into a block that must come out exactly 128 bits.
fn block(mode: u32, fields: &[(u32, u32)]) -> [u8; 16] {
    let mut bits = 1u128 << mode;
    let mut at = mode + 1;
    for &(value, width) in fields {
        assert!(width == 32 || value < 1 << width, "{value} in {width} bits");
        bits |= u128::from(value) << at;
        at += width;
    }
    assert_eq!(at, 128, "mode {mode}: the fields fill the block");
    bits.to_le_bytes()
}

/// Endpoint fields: every endpoint's red, then green, blue (and alpha), of
/// `width` bits each.
fn endpoints<const N: usize>(channels: &[[u32; N]], width: u32) -> Vec<(u32, u32)> {
    channels.iter().flatten().map(|&c| (c, width)).collect()
}

/// One-bit fields.
fn bits(values: &[u32]) -> Vec<(u32, u32)> {
    values.iter().map(|&b| (b, 1)).collect()
}

/// Sixteen index fields of `width` bits, one bit fewer at the `anchors`;
/// texel `t` takes the index `set` gives it, others 0.
fn indices(set: &[(usize, u32)], width: u32, anchors: &[usize]) -> Vec<(u32, u32)> {
    (0..16)
        .map(|t| {
            let index = set.iter().find(|(at, _)| *at == t).map_or(0, |s| s.1);
            let w = if anchors.contains(&t) {
                width - 1
            } else {
                width
            };
            (index, w)
        })
        .collect()
}

/// The block's texels as 8-bit unorm integers times 255 (what bc7_unorm reads).
fn decode(block: &[u8; 16]) -> Vec<[u32; 4]> {
    Format::Bc7Unorm
        .load_block(block)
        .expect("a whole block")
        .iter()
        .map(|t| t.map(|w| (f32::from_bits(w) * 255.0).round() as u32))
        .collect()
}

#[test]
fn mode_0_three_subsets_four_bit_colour_and_a_p_bit_per_endpoint() {
    // Partition 0 of Table.P3: 0011 0011 0221 2222; anchors 0, 3 (A3a) and 15 (A3b).
    let mut f = vec![(0, 4)];
    f.extend(endpoints(
        &[
            [15, 0, 8, 0, 0, 15],
            [0, 15, 0, 8, 15, 0],
            [0, 0, 15, 15, 4, 4],
        ],
        4,
    ));
    f.extend(bits(&[1, 0, 1, 0, 0, 1]));
    let set = [(1, 7), (2, 3), (3, 3), (9, 4), (15, 1)];
    f.extend(indices(&set, 3, &[0, 3, 15]));
    let t = decode(&block(0, &f));
    // (c << 1 | p) in 5 bits, then << 3 | >> 2: 15 with p 1 is 31 -> 255;
    // 0 with p 1 is 1 -> 8; 15 with p 0 is 30 -> 247; 8 with p 1 -> 140;
    // 8 with p 0 -> 132; 4 with p 0 -> 66, with p 1 -> 74. Endpoints:
    // subset 0 (255, 8, 8), (0, 247, 0); subset 1 (140, 8, 255), (0, 132,
    // 247); subset 2 (0, 247, 66), (255, 8, 74); alpha 255.
    assert_eq!(t[0], [255, 8, 8, 255]);
    assert_eq!(t[1], [0, 247, 0, 255], "index 7: e1");
    // Texels 2 and 3 (subset 1; 3 is its 2-bit anchor), index 3, weight
    // 27: (37·140 + 32) >> 6 = 81, (37·8 + 27·132 + 32) >> 6 = 60,
    // (37·255 + 27·247 + 32) >> 6 = 252.
    assert_eq!(t[2], [81, 60, 252, 255]);
    assert_eq!(t[3], t[2]);
    // Texel 9 (subset 2), index 4, weight 37: 147, 109, 71.
    assert_eq!(t[9], [147, 109, 71, 255]);
    // Texel 15, subset 2's anchor, index 1, weight 9: 36, 213, 67.
    assert_eq!(t[15], [36, 213, 67, 255]);
    // Index 0 takes each subset's e0.
    assert_eq!(
        [t[8], t[11], t[12]],
        [[255, 8, 8, 255], [140, 8, 255, 255], [0, 247, 66, 255]]
    );
}

#[test]
fn mode_1_two_subsets_six_bit_colour_and_a_shared_p_bit() {
    // Partition 13 of Table.P2: rows 0-1 subset 0, rows 2-3 subset 1;
    // anchor 15 (A2).
    let mut f = vec![(13, 6)];
    f.extend(endpoints(
        &[[63, 0, 10, 50], [0, 63, 20, 40], [32, 31, 63, 0]],
        6,
    ));
    f.extend(bits(&[1, 0]));
    f.extend(indices(&[(0, 3), (7, 5), (8, 6), (15, 2)], 3, &[0, 15]));
    let t = decode(&block(1, &f));
    // Subset 0 shares p = 1, subset 1 p = 0; (c << 1 | p) << 1 | >> 6:
    // (255, 2, 131), (2, 255, 126); (40, 80, 253), (201, 161, 0).
    // Texel 0 (2-bit anchor) index 3, weight 27: 148, 109, 129.
    assert_eq!(t[0], [148, 109, 129, 255]);
    // Texel 7, index 5, weight 46: 73, 184, 127.
    assert_eq!(t[7], [73, 184, 127, 255]);
    // Texel 8 (subset 1), index 6, weight 55: 178, 150, 36.
    assert_eq!(t[8], [178, 150, 36, 255]);
    // Texel 15 (subset 1's 2-bit anchor), index 2, weight 18: 85, 103, 182.
    assert_eq!(t[15], [85, 103, 182, 255]);
    assert_eq!([t[1], t[9]], [[255, 2, 131, 255], [40, 80, 253, 255]]);
}

#[test]
fn mode_2_three_subsets_five_bit_colour_without_p_bits() {
    // Partition 8 of Table.P3: rows 0-1 subset 0, row 2 subset 1, row 3
    // subset 2; anchors 0, 8 and 15.
    let mut f = vec![(8, 6)];
    f.extend(endpoints(
        &[
            [31, 0, 16, 1, 0, 31],
            [0, 31, 8, 2, 31, 31],
            [0, 0, 4, 3, 0, 31],
        ],
        5,
    ));
    let set = [(0, 1), (3, 2), (8, 1), (10, 3), (12, 2), (15, 1)];
    f.extend(indices(&set, 2, &[0, 8, 15]));
    let t = decode(&block(2, &f));
    // c << 3 | c >> 2: (255, 0, 0), (0, 255, 0); (132, 66, 33), (8, 16,
    // 24); (0, 255, 0), (255, 255, 255). Weights 21 and 43.
    assert_eq!(t[0], [171, 84, 0, 255]);
    assert_eq!(t[3], [84, 171, 0, 255]);
    // Texel 8, subset 1's 1-bit anchor, index 1: (43·132 + 21·8 + 32) >> 6
    // = 91, 50, (43·33 + 21·24 + 32) >> 6 = 30.
    assert_eq!(t[8], [91, 50, 30, 255]);
    assert_eq!(t[10], [8, 16, 24, 255], "index 3: e1");
    // Texel 12 (subset 2) index 2: 171, (64·255 + 32) >> 6 = 255, 171.
    assert_eq!(t[12], [171, 255, 171, 255]);
    assert_eq!(t[15], [84, 255, 84, 255]);
}

#[test]
fn mode_3_two_subsets_seven_bit_colour_and_an_anchor_inside_the_block() {
    // Partition 17 of Table.P2: 0111 0001 0000 0000; subset 1's anchor is
    // texel 2 (A2), not its first texel.
    let mut f = vec![(17, 6)];
    f.extend(endpoints(
        &[[127, 0, 64, 1], [1, 126, 0, 127], [100, 27, 127, 0]],
        7,
    ));
    f.extend(bits(&[0, 1, 1, 0]));
    f.extend(indices(&[(0, 1), (1, 3), (2, 1), (4, 2)], 2, &[0, 2]));
    let t = decode(&block(3, &f));
    // c << 1 | p is already 8 bits: (254, 2, 200), (1, 253, 55); (129, 1,
    // 255), (2, 254, 0).
    assert_eq!(t[0], [171, 84, 152, 255], "weight 21");
    assert_eq!(t[1], [2, 254, 0, 255], "subset 1, index 3");
    // Texel 2, subset 1's 1-bit anchor, index 1: 87, 84, 171.
    assert_eq!(t[2], [87, 84, 171, 255]);
    assert_eq!(t[4], [84, 171, 103, 255], "weight 43");
    assert_eq!([t[3], t[5]], [[129, 1, 255, 255], [254, 2, 200, 255]]);
}

#[test]
fn mode_4_separate_alpha_rotation_and_the_index_selector() {
    // Rotation 1 (swap alpha and red), index selector 1 (colour takes the
    // 3-bit secondary indices, alpha the 2-bit primary ones).
    let mut f = vec![(1, 2), (1, 1)];
    f.extend(endpoints(&[[31, 0], [0, 31], [10, 20]], 5));
    f.extend(endpoints(&[[63, 0]], 6));
    f.extend(indices(&[(0, 1), (1, 2), (2, 3)], 2, &[0]));
    f.extend(indices(&[(0, 3), (1, 7), (2, 4)], 3, &[0]));
    let t = decode(&block(4, &f));
    // Colour (255, 0, 82), (0, 255, 165); alpha 63 -> 255, 0 -> 0.
    // Texel 0: colour index 3 (weight 27) 147, 108, 117; alpha index 1
    // (weight 21) 171; red and alpha swapped.
    assert_eq!(t[0], [171, 108, 117, 147]);
    // Texel 1: colour index 7 (e1), alpha index 2 (weight 43) 84.
    assert_eq!(t[1], [84, 255, 165, 0]);
    // Texel 2: colour index 4 (weight 37) 108, 147, 130; alpha index 3: 0.
    assert_eq!(t[2], [0, 147, 130, 108]);
    assert_eq!(t[3], [255, 0, 82, 255]);
}

#[test]
fn mode_5_seven_bit_colour_eight_bit_alpha_and_rotation() {
    // Rotation 3: swap alpha and blue.
    let mut f = vec![(3, 2)];
    f.extend(endpoints(&[[127, 0], [64, 63], [0, 100]], 7));
    f.extend(endpoints(&[[0, 255]], 8));
    f.extend(indices(&[(0, 1), (5, 2)], 2, &[0]));
    f.extend(indices(&[(0, 1), (5, 3)], 2, &[0]));
    let t = decode(&block(5, &f));
    // c << 1 | c >> 6: (255, 129, 0), (0, 126, 201); alpha 0 and 255.
    // Texel 0: colour weight 21: 171, (43·129 + 21·126 + 32) >> 6 = 128,
    // (21·201 + 32) >> 6 = 66; alpha weight 21: 84; blue <-> alpha.
    assert_eq!(t[0], [171, 128, 84, 66]);
    // Texel 5: colour weight 43: 84, 127, 135; alpha index 3: 255.
    assert_eq!(t[5], [84, 127, 255, 135]);
    assert_eq!(t[1], [255, 129, 0, 0]);
}

#[test]
fn mode_7_two_subsets_five_bit_colour_and_alpha() {
    // Partition 34 of Table.P2: 0101 1010 0101 1010; subset 1's anchor is
    // texel 6 (A2), though texel 1 is its first.
    let mut f = vec![(34, 6)];
    f.extend(endpoints(
        &[
            [31, 0, 0, 16],
            [0, 31, 0, 8],
            [0, 0, 31, 4],
            [31, 0, 16, 31],
        ],
        5,
    ));
    f.extend(bits(&[1, 0, 0, 1]));
    f.extend(indices(
        &[(0, 1), (1, 2), (2, 3), (6, 1), (9, 3)],
        2,
        &[0, 6],
    ));
    let t = decode(&block(7, &f));
    // (c << 1 | p) in 6 bits, << 2 | >> 4: subset 0 (255, 4, 4, 255), (0,
    // 251, 0, 0); subset 1 (0, 0, 251, 130), (134, 69, 36, 255).
    assert_eq!(t[0], [171, 85, 3, 171], "weight 21");
    // Texel 1 (subset 1) index 2, weight 43: 90, 46, 107, 214.
    assert_eq!(t[1], [90, 46, 107, 214]);
    assert_eq!(t[2], [0, 251, 0, 0], "subset 0, index 3");
    // Texel 6, subset 1's 1-bit anchor, index 1: 44, 23, 180, 171.
    assert_eq!(t[6], [44, 23, 180, 171]);
    assert_eq!(t[9], [134, 69, 36, 255], "subset 1, index 3");
    assert_eq!([t[3], t[5]], [[0, 0, 251, 130], [255, 4, 4, 255]]);
}
