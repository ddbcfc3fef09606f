//! Cube-map face selection and projection, by D3D's rules.
//!
//! The face is the direction's major axis (ties prefer z, then y), in the
//! order +X, -X, +Y, -Y, +Z, -Z. On each face the direction's other two
//! components, divided by the major one's magnitude, give `u` (right) and
//! `v` (down) in [0, 1]:
//! +X: (-z, -y), -X: (+z, -y), +Y: (+x, +z), -Y: (+x, -z), +Z: (+x, -y), -Z: (-x, -y).

/// How a face maps a direction: the sign of its major axis, and the axis
/// and sign giving `u`, then `v`.
struct Face {
    sign: f32,
    u: (usize, f32),
    v: (usize, f32),
}

/// The faces in D3D order.
const FACES: [Face; 6] = [
    Face {
        sign: 1.0,
        u: (2, -1.0),
        v: (1, -1.0),
    },
    Face {
        sign: -1.0,
        u: (2, 1.0),
        v: (1, -1.0),
    },
    Face {
        sign: 1.0,
        u: (0, 1.0),
        v: (2, 1.0),
    },
    Face {
        sign: -1.0,
        u: (0, 1.0),
        v: (2, -1.0),
    },
    Face {
        sign: 1.0,
        u: (0, 1.0),
        v: (1, -1.0),
    },
    Face {
        sign: -1.0,
        u: (0, -1.0),
        v: (1, -1.0),
    },
];

/// A direction projected onto its face.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Projection {
    /// The face, 0..6 in D3D order.
    pub face: u32,
    /// Face coordinates in [0, 1].
    pub uv: [f32; 2],
    major: usize,
    sign: f32,
    magnitude: f32,
}

/// The face `dir` points at and where on it.
pub(crate) fn project(dir: [f32; 3]) -> Projection {
    let [ax, ay, az] = dir.map(f32::abs);
    let major = if az >= ax && az >= ay {
        2
    } else if ay >= ax {
        1
    } else {
        0
    };
    let face = 2 * major as u32 + u32::from(dir[major] < 0.0);
    let Face { sign, u, v } = FACES[face as usize];
    let magnitude = dir[major].abs();
    let uv = [u.1 * dir[u.0], v.1 * dir[v.0]].map(|c| 0.5 * (c / magnitude + 1.0));
    Projection {
        face,
        uv,
        major,
        sign,
        magnitude,
    }
}

impl Projection {
    /// The change of the face coordinates for a change `d` of the direction
    /// (the derivative of the projection, on this projection's face).
    pub fn derivative(&self, d: [f32; 3]) -> [f32; 2] {
        let Face { u, v, .. } = FACES[self.face as usize];
        let dmajor = self.sign * d[self.major];
        let m = self.magnitude;
        [(u.0, u.1, 0), (v.0, v.1, 1)].map(|(axis, s, c)| {
            let sc = (2.0 * self.uv[c] - 1.0) * m;
            0.5 * (s * d[axis] * m - sc * dmajor) / (m * m)
        })
    }
}

/// The direction of the point at face coordinates `uv` of face `face`
/// (the inverse of [`project`], up to scale; `uv` may lie outside [0, 1],
/// which points into a neighbouring face).
pub(crate) fn direction(face: u32, uv: [f32; 2]) -> [f32; 3] {
    let Face { sign, u, v } = FACES[face as usize];
    let mut dir = [0.0f32; 3];
    dir[face as usize / 2] = sign;
    dir[u.0] = u.1 * (2.0 * uv[0] - 1.0);
    dir[v.0] = v.1 * (2.0 * uv[1] - 1.0);
    dir
}
