//! The absorbing furnace's independent answer: a homogeneous plane-parallel slab of optical
//! thickness τ, single-scattering albedo ω and a Henyey–Greenstein phase, solved in f64 by
//! adding–doubling. The radiance is discretised in μ (the cosine to the slab's normal) on
//! Gauss–Legendre nodes in each hemisphere and averaged over azimuth (the m = 0 Fourier term,
//! all that a field without azimuth needs). A thin layer of τ₀ ≤ 2⁻¹⁶ starts it, by Wiscombe's
//! diamond initialisation (the transfer equation across the layer with the trapezoid rule,
//! second-order in τ₀: 2⁻¹⁶ leaves ~10⁻¹², and rounding, which grows with the number of layers
//! τ/τ₀, is ~3·10⁻¹⁰ at τ = 10); doubling two identical layers,
//!
//!   R₂ = R + T (I − R R)⁻¹ R T,   T₂ = T (I − R R)⁻¹ T,
//!
//! reaches τ = 2ᵏ τ₀. R and T are operators on the radiance at the nodes (their weights inside),
//! T holding the direct beam on its diagonal. An exit direction off the nodes is an extra node
//! of weight 0: it takes part in no integral, but its rows sample R and T there.
//!
//! After van de Hulst, "Multiple Light Scattering: Tables, Formulas, and Applications" (1980),
//! Hansen & Travis, "Light scattering in planetary atmospheres" (1974), Wiscombe, "On
//! initialization, error and flux conservation in the doubling method" (1976), and Prahl's
//! adding–doubling program (Prahl 1995).

/// A square matrix, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub n: usize,
    pub a: Vec<f64>,
}

impl Matrix {
    pub fn zeros(n: usize) -> Self {
        Self { n, a: vec![0.0; n * n] }
    }

    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n);
        for i in 0..n {
            m.a[i * n + i] = 1.0;
        }
        m
    }

    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.n + j]
    }

    fn combine(&self, other: &Self, s: f64) -> Self {
        Self { n: self.n, a: self.a.iter().zip(&other.a).map(|(x, y)| x + s * y).collect() }
    }

    pub fn add(&self, other: &Self) -> Self {
        self.combine(other, 1.0)
    }

    pub fn sub(&self, other: &Self) -> Self {
        self.combine(other, -1.0)
    }

    pub fn mul(&self, other: &Self) -> Self {
        let n = self.n;
        let mut m = Self::zeros(n);
        for i in 0..n {
            for k in 0..n {
                let x = self.at(i, k);
                if x != 0.0 {
                    for j in 0..n {
                        m.a[i * n + j] += x * other.a[k * n + j];
                    }
                }
            }
        }
        m
    }

    /// X with self · X = b, by Gaussian elimination with partial pivoting.
    pub fn solve(&self, b: &Self) -> Self {
        let n = self.n;
        let (mut a, mut x) = (self.a.clone(), b.a.clone());
        for c in 0..n {
            let p = (c..n).max_by(|&i, &j| a[i * n + c].abs().total_cmp(&a[j * n + c].abs())).unwrap_or(c);
            for j in 0..n {
                a.swap(c * n + j, p * n + j);
                x.swap(c * n + j, p * n + j);
            }
            let d = a[c * n + c];
            for r in (0..n).filter(|&r| r != c) {
                let f = a[r * n + c] / d;
                if f != 0.0 {
                    for j in 0..n {
                        a[r * n + j] -= f * a[c * n + j];
                        x[r * n + j] -= f * x[c * n + j];
                    }
                }
            }
        }
        for r in 0..n {
            let d = a[r * n + r];
            x[r * n..(r + 1) * n].iter_mut().for_each(|v| *v /= d);
        }
        Self { n, a: x }
    }
}

/// Gauss–Legendre nodes and weights on (0, 1): the weights sum to 1, and n nodes integrate
/// polynomials of degree 2n − 1 exactly.
pub fn gauss_legendre(n: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut nodes, mut weights) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        // Newton's method on Pₙ from Tricomi's estimate of its i-th root on (−1, 1).
        let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
        let mut dp = 1.0;
        for _ in 0..100 {
            let (p, d) = legendre_and_derivative(n, x);
            dp = d;
            let dx = p / d;
            x -= dx;
            if dx.abs() < 1e-16 {
                break;
            }
        }
        nodes.push(0.5 * (1.0 - x));
        weights.push(1.0 / ((1.0 - x * x) * dp * dp));
    }
    (nodes, weights)
}

/// Pₙ(x) and Pₙ'(x) by the three-term recurrence.
fn legendre_and_derivative(n: usize, x: f64) -> (f64, f64) {
    let (mut p0, mut p1) = (1.0, x);
    for k in 2..=n {
        let p2 = ((2 * k - 1) as f64 * x * p1 - (k - 1) as f64 * p0) / k as f64;
        (p0, p1) = (p1, p2);
    }
    if n == 0 {
        return (1.0, 0.0);
    }
    (p1, n as f64 * (x * p1 - p0) / (x * x - 1.0))
}

/// Henyey–Greenstein's mean over azimuth between directions of cosines μ and μ' to the normal,
/// normalised as ½ ∫₋₁¹ p⁰ dμ' = 1: Σₗ (2l + 1) gˡ Pₗ(μ) Pₗ(μ'), to where gˡ < 10⁻¹⁷.
pub fn henyey_greenstein_azimuthal(g: f64, mu: f64, mu2: f64) -> f64 {
    let (mut sum, mut gl) = (1.0, 1.0);
    let (mut a0, mut a1, mut b0, mut b1) = (1.0, mu, 1.0, mu2);
    for l in 1..4000 {
        gl *= g;
        if gl.abs() < 1e-17 {
            break;
        }
        sum += (2 * l + 1) as f64 * gl * a1 * b1;
        let k = (l + 1) as f64;
        let (a2, b2) =
            (((2 * l + 1) as f64 * mu * a1 - l as f64 * a0) / k, ((2 * l + 1) as f64 * mu2 * b1 - l as f64 * b0) / k);
        (a0, a1, b0, b1) = (a1, a2, b1, b2);
    }
    sum
}

/// A homogeneous slab: optical thickness τ, single-scattering albedo ω, Henyey–Greenstein g.
#[derive(Clone, Copy, Debug)]
pub struct Slab {
    pub tau: f64,
    pub albedo: f64,
    pub g: f64,
}

/// Nodes per hemisphere and the thickest starting layer.
#[derive(Clone, Copy, Debug)]
pub struct Discretisation {
    pub nodes: usize,
    pub thinnest: f64,
}

impl Default for Discretisation {
    fn default() -> Self {
        Self { nodes: 32, thinnest: 2f64.powi(-16) }
    }
}

/// A layer's reflection and transmission (direct beam included) on the nodes `mu` of
/// weights `w`: the radiance leaving the top towards μᵢ is Σⱼ Rᵢⱼ L_top(μⱼ) + Tᵢⱼ L_bottom(μⱼ)
/// for the radiance arriving on the top and the bottom along μⱼ. The layer is symmetric: one R
/// and one T serve both faces.
#[derive(Clone, Debug)]
pub struct Layer {
    pub mu: Vec<f64>,
    pub w: Vec<f64>,
    pub r: Matrix,
    pub t: Matrix,
}

impl Layer {
    /// The whole slab on `d`'s nodes plus `exits` (weight 0).
    pub fn slab(slab: Slab, d: Discretisation, exits: &[f64]) -> Self {
        let (mut mu, mut w) = gauss_legendre(d.nodes);
        mu.extend_from_slice(exits);
        w.extend(exits.iter().map(|_| 0.0));
        let doublings = (slab.tau / d.thinnest).log2().ceil().max(0.0) as i32;
        let mut layer = Self::thin(slab, 0.5f64.powi(doublings) * slab.tau, mu, w);
        for _ in 0..doublings {
            layer = layer.doubled();
        }
        layer
    }

    /// Diamond initialisation of a layer `h` thick: with a = h/2 M⁻¹(I − ω/2 P⁺W) and
    /// b = h/2 M⁻¹ ω/2 P⁻W, the trapezoid rule across the layer gives
    /// T + R = (I + a − b)⁻¹(I − a + b) and T − R = (I + a + b)⁻¹(I − a − b).
    fn thin(slab: Slab, h: f64, mu: Vec<f64>, w: Vec<f64>) -> Self {
        let n = mu.len();
        let (mut a, mut b) = (Matrix::zeros(n), Matrix::zeros(n));
        for i in 0..n {
            for j in 0..n {
                let s = 0.5 * h / mu[i] * 0.5 * slab.albedo * w[j];
                let same = henyey_greenstein_azimuthal(slab.g, mu[i], mu[j]);
                let opposite = henyey_greenstein_azimuthal(slab.g, mu[i], -mu[j]);
                a.a[i * n + j] = if i == j { 0.5 * h / mu[i] } else { 0.0 } - s * same;
                b.a[i * n + j] = s * opposite;
            }
        }
        let id = Matrix::identity(n);
        let sum = id.add(&a).sub(&b).solve(&id.sub(&a).add(&b));
        let difference = id.add(&a).add(&b).solve(&id.sub(&a).sub(&b));
        let half = |m: Matrix| Matrix { n, a: m.a.iter().map(|v| 0.5 * v).collect() };
        Self { r: half(sum.sub(&difference)), t: half(sum.add(&difference)), mu, w }
    }

    // ANCHOR: doubling
    /// Two copies of the layer, one on the other: the light between them summed over all its
    /// round trips, (I − R R)⁻¹.
    fn doubled(&self) -> Self {
        let between = Matrix::identity(self.r.n).sub(&self.r.mul(&self.r));
        let r = self.r.add(&self.t.mul(&between.solve(&self.r.mul(&self.t))));
        let t = self.t.mul(&between.solve(&self.t));
        Self { mu: self.mu.clone(), w: self.w.clone(), r, t }
    }
    // ANCHOR_END: doubling

    /// The radiance leaving towards node `i` when radiance 1 arrives from every direction on
    /// both faces: the row sums of R and T.
    pub fn furnace(&self, i: usize) -> f64 {
        (0..self.r.n).map(|j| self.r.at(i, j) + self.t.at(i, j)).sum()
    }
}

/// The radiance leaving the slab at cosine `mu` to its normal when a uniform radiance `l`
/// lights both faces: l (e^(−τ/μ) + the diffuse reflection and transmission of the field).
pub fn furnace_radiance(slab: Slab, mu: f64, l: f64) -> f64 {
    let layer = Layer::slab(slab, Discretisation::default(), &[mu]);
    l * layer.furnace(layer.mu.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ∫ f over [lo, hi] by Simpson's rule on `n` intervals (even).
    fn simpson(f: impl Fn(f64) -> f64, lo: f64, hi: f64, n: usize) -> f64 {
        let h = (hi - lo) / n as f64;
        let inner: f64 = (1..n).map(|i| if i % 2 == 1 { 4.0 } else { 2.0 } * f(lo + i as f64 * h)).sum();
        (f(lo) + f(hi) + inner) * h / 3.0
    }

    /// Single scattering of isotropic albedo-ω matter in a slab of thickness τ lit by radiance
    /// 1 from every direction, leaving at cosine μ, in closed form under one integral over the
    /// incident cosine μ₀ (the direct beam scattered once, then attenuated on its way out):
    ///   from the lit face  ω/2 ∫ μ₀/(μ + μ₀) (1 − e^(−τ(1/μ + 1/μ₀))) dμ₀,
    ///   from the far face  ω/2 ∫ μ₀ (e^(−τ/μ) − e^(−τ/μ₀)) / (μ − μ₀) dμ₀.
    fn single_scattering(tau: f64, albedo: f64, mu: f64) -> f64 {
        let reflected =
            |m0: f64| if m0 > 0.0 { m0 / (mu + m0) * -(-tau * (1.0 / mu + 1.0 / m0)).exp_m1() } else { 0.0 };
        let transmitted = |m0: f64| {
            let x = m0 - mu;
            if m0 <= 0.0 {
                0.0
            } else if x.abs() > 1e-3 {
                m0 * ((-tau / mu).exp() - (-tau / m0).exp()) / -x
            } else if x.abs() > 1e-12 {
                m0 * (-tau / m0).exp() * (-tau * x / (mu * m0)).exp_m1() / -x
            } else {
                tau / mu * (-tau / mu).exp()
            }
        };
        0.5 * albedo * (simpson(reflected, 0.0, 1.0, 200_000) + simpson(transmitted, 0.0, 1.0, 200_000))
    }

    const EXITS: [f64; 3] = [0.2, 0.5, 0.866];

    #[test]
    fn gauss_legendre_integrates_its_degree() {
        for n in [1, 4, 16, 32] {
            let (x, w) = gauss_legendre(n);
            for k in 0..2 * n {
                let sum: f64 = x.iter().zip(&w).map(|(x, w)| w * x.powi(k as i32)).sum();
                let exact = 1.0 / (k as f64 + 1.0);
                assert!((sum - exact).abs() < 1e-13, "n {n}, ∫ x^{k}: {sum} vs {exact}");
            }
        }
    }

    #[test]
    fn the_azimuthal_phase_is_normalised_and_reduces_to_g_zero() {
        for g in [0.0, 0.3, 0.6] {
            for mu in [0.1, 0.5, 0.9, -0.7] {
                let total = 0.5 * simpson(|m| henyey_greenstein_azimuthal(g, mu, m), -1.0, 1.0, 20_000);
                assert!((total - 1.0).abs() < 1e-9, "g {g}, μ {mu}: ½∫p⁰ = {total}");
            }
        }
        // Against the mean over azimuth of the closed-form phase (4π p_HG), by Simpson in φ.
        let (g, mu, mu2): (f64, f64, f64) = (0.5, 0.3, -0.6);
        let direct = simpson(
            |phi| {
                let c = mu * mu2 + ((1.0 - mu * mu) * (1.0 - mu2 * mu2)).sqrt() * phi.cos();
                4.0 * std::f64::consts::PI * crate::reference::henyey_greenstein(g, c)
            },
            0.0,
            std::f64::consts::PI,
            20_000,
        ) / std::f64::consts::PI;
        let series = henyey_greenstein_azimuthal(g, mu, mu2);
        assert!((direct / series - 1.0).abs() < 1e-10, "{direct} vs {series}");
    }

    #[test]
    fn albedo_one_returns_the_environment() {
        for tau in [0.1, 1.0, 10.0, 100.0] {
            for g in [0.0, 0.6] {
                let layer = Layer::slab(Slab { tau, albedo: 1.0, g }, Discretisation::default(), &EXITS);
                for i in 0..layer.mu.len() {
                    let l = layer.furnace(i);
                    // Exact in exact arithmetic; rounding adds ~10⁻¹⁶ per layer, 2.5·10⁻⁹ at τ = 100.
                    assert!((l - 1.0).abs() < 1e-8, "τ {tau}, g {g}, μ {}: {l}", layer.mu[i]);
                }
            }
        }
    }

    #[test]
    fn albedo_zero_is_beer_lambert() {
        for tau in [0.1, 1.0, 10.0] {
            for mu in EXITS {
                let l = furnace_radiance(Slab { tau, albedo: 0.0, g: 0.0 }, mu, 1.0);
                let exact = (-tau / mu).exp();
                // The diamond layer's beam is (1 − τ₀/2μ)/(1 + τ₀/2μ), off e^(−τ₀/μ) by τ₀³/12μ³:
                // τ τ₀²/12μ³ over the slab, 10⁻⁸ at τ = 10, μ = 0.2.
                assert!((l / exact - 1.0).abs() < 2e-8, "τ {tau}, μ {mu}: {l} vs {exact}");
            }
        }
    }

    #[test]
    fn first_order_in_albedo_is_single_scattering() {
        // The slab's answer is e^(−τ/μ) + ω S₁ + O(ω²) with S₁ single scattering; S₁ from three
        // solutions by Richardson's extrapolation (error O(ω²)), the direct beam cancelling.
        let w = 1e-3;
        for tau in [0.5, 2.0] {
            for mu in EXITS {
                let at = |albedo: f64| furnace_radiance(Slab { tau, albedo, g: 0.0 }, mu, 1.0);
                let s1 = (4.0 * at(0.5 * w) - at(w) - 3.0 * at(0.0)) / w;
                let closed = single_scattering(tau, 1.0, mu);
                assert!((s1 / closed - 1.0).abs() < 1e-6, "τ {tau}, μ {mu}: S₁ {s1} vs {closed}");
            }
        }
    }

    #[test]
    fn a_thin_slab_scatters_once() {
        // At τ = 10⁻³ light scattered twice adds at most ω τ (1 + ln 1/τ) to light scattered
        // once (the second source is ω/2 ∫ ωτ/μ' dμ', cut off where τ/μ' reaches 1).
        let (tau, albedo): (f64, f64) = (1e-3, 0.5);
        let bound = albedo * tau * (1.0 + (1.0 / tau).ln());
        for mu in EXITS {
            let l = furnace_radiance(Slab { tau, albedo, g: 0.0 }, mu, 1.0);
            let excess = (l - (-tau / mu).exp()) / single_scattering(tau, albedo, mu) - 1.0;
            assert!((0.0..bound).contains(&excess), "μ {mu}: {excess:e} more than single scattering, bound {bound:e}");
        }
    }

    #[test]
    fn reflection_and_transmission_are_reciprocal() {
        // R(μ, μ') = R(μ', μ) for the reflection function ρ = R_ij / (2 μⱼ wⱼ), and likewise T.
        for (tau, albedo, g) in [(1.0, 0.5, 0.0), (3.0, 0.9, 0.6)] {
            let layer = Layer::slab(Slab { tau, albedo, g }, Discretisation { nodes: 16, ..Default::default() }, &[]);
            let rho = |m: &Matrix, i: usize, j: usize| m.at(i, j) / (layer.mu[j] * layer.w[j]);
            for i in 0..layer.mu.len() {
                for j in 0..i {
                    for (name, m) in [("R", &layer.r), ("T", &layer.t)] {
                        let (a, b) = (rho(m, i, j), rho(m, j, i));
                        assert!((a / b - 1.0).abs() < 1e-9, "τ {tau}, {name}({i}, {j}) = {a}, ({j}, {i}) = {b}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_doubling_is_converged() {
        // Half the starting layer, or twice the nodes, moves the answer by less than 10⁻⁶.
        for (tau, g) in [(0.1, 0.0), (1.0, 0.0), (10.0, 0.0), (1.0, 0.6)] {
            let slab = Slab { tau, albedo: 0.5, g };
            let d = Discretisation::default();
            let finer =
                [Discretisation { thinnest: 0.5 * d.thinnest, ..d }, Discretisation { nodes: 2 * d.nodes, ..d }];
            for mu in EXITS {
                let l = |d: Discretisation| {
                    let layer = Layer::slab(slab, d, &[mu]);
                    layer.furnace(layer.mu.len() - 1)
                };
                let base = l(d);
                for f in finer {
                    let other = l(f);
                    assert!((other / base - 1.0).abs() < 1e-6, "τ {tau}, g {g}, μ {mu}, {f:?}: {other} vs {base}");
                }
            }
        }
    }
}
