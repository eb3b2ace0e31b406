import Foundation

extension VelocityTracker {
    /// The first-order coefficients of the unweighted least-squares polynomials of `degree`
    /// through `(times[i], xs[i])` and `(times[i], ys[i])`: the slopes at t = 0. `nil` when the fit
    /// is degenerate (fewer distinct times than coefficients).
    ///
    /// Solves the Vandermonde system by a QR decomposition (modified Gram–Schmidt), the
    /// method Android's `solveLeastSquares` and Flutter's `LeastSquaresSolver` both use; the
    /// normal equations lose too many digits when the times are a few milliseconds apart.
    /// Q and R depend on the times alone, so one decomposition serves both axes (the scroll
    /// model asks every frame while dragging); the matrices are flat arrays, column after column.
    /// - Complexity: O(n · degree²).
    static func leastSquaresSlopes(times: [Double], xs: [Double], ys: [Double], degree: Int) -> (x: Double, y: Double)? {
        times.withUnsafeBufferPointer { times in
            xs.withUnsafeBufferPointer { xs in
                ys.withUnsafeBufferPointer { ys in leastSquaresSlopes(times: times, xs: xs, ys: ys, degree: degree) }
            }
        }
    }

    /// ``leastSquaresSlopes(times:xs:ys:degree:)`` over buffers, its matrices in one temporary
    /// allocation (on the stack for the few samples of a drag): the scroll model fits on every
    /// touch sample, and seven arrays per fit were most of its cost. The same operations in the same
    /// order, so the same bits.
    static func leastSquaresSlopes(
        times: UnsafeBufferPointer<Double>, xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>,
        degree: Int
    ) -> (x: Double, y: Double)? {
        let n = times.count
        let m = degree + 1
        precondition(xs.count == n && ys.count == n, "one position per time")
        guard n >= m, degree >= 1 else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: m * n + m * m + m) { storage in
            // Columns of A: q[j·n + i] = times[i]^j; then r[k·m + j]; then b. Read and written
            // through raw pointers with wrapping index arithmetic (every index is below m·n + m² + m,
            // the allocation's size): a bounds and an overflow check per access were about half
            // of the fit's instructions, and the fit runs on every touch sample. The floating-point
            // operations are the same, in the same order: the same bits.
            guard let q = storage.baseAddress, let t = times.baseAddress, let xv = xs.baseAddress,
                let yv = ys.baseAddress
            else { return nil }
            let r = q + m &* n
            let b = r + m &* m
            // Column j is column j − 1 times t, one multiplication per entry, as Android's
            // `solveLeastSquares` and Flutter's `LeastSquaresSolver.solve` (lsq_solver.dart) expand
            // the times (t^0 = 1, t^1 = t exactly). C's `pow` for t^2 was 2 % of `feedsim load`'s
            // instructions (callgrind, 16 grid sessions).
            for i in 0..<n { q[i] = 1 }
            for j in 1..<max(1, m) {
                let column = q + j &* n
                let previous = column - n
                for i in 0..<n { column[i] = previous[i] * t[i] }
            }
            r.initialize(repeating: 0, count: m &* m)
            for j in 0..<m {
                let qj = q + j &* n
                for k in 0..<j {
                    let qk = q + k &* n
                    var dot = 0.0
                    for i in 0..<n { dot += qj[i] * qk[i] }
                    r[k &* m &+ j] = dot
                    for i in 0..<n { qj[i] -= dot * qk[i] }
                }
                var sumOfSquares = 0.0
                for i in 0..<n { sumOfSquares += qj[i] * qj[i] }
                let norm = sumOfSquares.squareRoot()
                // Times are in seconds; a column this small means repeated times (no information).
                guard norm > 1e-9 else { return nil }
                for i in 0..<n { qj[i] /= norm }
                r[j &* m &+ j] = norm
            }
            // b = R⁻¹ Qᵀ y by back substitution.
            func slope(_ values: UnsafePointer<Double>) -> Double {
                for j in 0..<m {
                    let qj = q + j &* n
                    var dot = 0.0
                    for i in 0..<n { dot += qj[i] * values[i] }
                    b[j] = dot
                }
                for j in stride(from: m - 1, through: 0, by: -1) {
                    for k in (j + 1)..<m { b[j] -= r[j &* m &+ k] * b[k] }
                    b[j] /= r[j &* m &+ j]
                }
                return b[1]
            }
            return (slope(xv), slope(yv))
        }
    }

    /// Android's impulse estimate (`calculateImpulseVelocity`): walking from the oldest
    /// segment to the newest, each segment's velocity `v_i` does work `(v_i − v_prev)·|v_i|`
    /// on a unit mass whose speed is `v_prev = sign(W)·√(2|W|)`; the first segment starts from
    /// rest, so its work is halved (E = ½v²). The result is `sign(W)·√(2|W|)`.
    ///
    /// `times` are seconds, oldest first. Two samples give the plain slope; segments with equal
    /// times are skipped.
    static func impulseVelocity(times: [Double], values: [Double]) -> Double {
        times.withUnsafeBufferPointer { times in
            values.withUnsafeBufferPointer { values in impulseVelocity(times: times, values: values) }
        }
    }

    /// ``impulseVelocity(times:values:)`` over buffers.
    static func impulseVelocity(times: UnsafeBufferPointer<Double>, values: UnsafeBufferPointer<Double>) -> Double {
        let n = times.count
        guard n >= 2 else { return 0 }
        if n == 2 {
            let dt = times[1] - times[0]
            return dt == 0 ? 0 : (values[1] - values[0]) / dt
        }
        func velocityOfEnergy(_ work: Double) -> Double {
            (work < 0 ? -1 : 1) * (2 * abs(work)).squareRoot()
        }
        var work = 0.0
        for i in 1..<n {
            let dt = times[i] - times[i - 1]
            if dt == 0 { continue }
            let previous = velocityOfEnergy(work)
            let current = (values[i] - values[i - 1]) / dt
            work += (current - previous) * abs(current)
            if i == 1 { work *= 0.5 }
        }
        return velocityOfEnergy(work)
    }
}
