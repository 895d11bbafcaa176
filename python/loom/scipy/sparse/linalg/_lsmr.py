"""lsmr: Fong and Saunders' LSMR for least-squares problems min ||A x - b||^2 + damp^2 ||x||^2,
with SciPy's signature, stopping tests and 8-tuple result. LSMR is MINRES applied to the
normal equations: ||A^H r|| decreases monotonically, so it may stop earlier than LSQR.

The Golub-Kahan bidiagonalization and the three vector recurrences (x, h, hbar) run on the
device; the two QR factorizations and the estimates of ||r||, ||A|| and cond(A) are host
scalars. Each iteration reads the two new bidiagonal entries, then ||x|| (SciPy's tests use
the true norm of x)."""
import math

import loom

from ._lsqr import _MESSAGES, host_reals, least_squares_system, start_bidiagonalization, stop_reason, sym_ortho


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False, x0=None):
    """The least-squares solution of A x = b, or of the damped problem, by LSMR
    (scipy.sparse.linalg.lsmr). A needs matvec and rmatvec; maxiter defaults to min(m, n).
    Returns (x, istop, itn, normr, normar, norma, conda, normx) with istop as lsqr's: 1 or 2
    when atol, btol were met, 3 when cond(A) passed conlim, 4-6 the same at machine
    precision, 7 the iteration limit; normr = ||b - A x||, normar = ||A^H (b - A x)||."""
    op, b, x, dt, matvec, rmatvec = least_squares_system("lsmr", A, b, x0, True)
    m, n = op.shape
    maxiter = min(m, n) if maxiter is None else int(maxiter)
    dev = b.device

    x, u, v, normb, beta, alpha = start_bidiagonalization(x, b, n, dt, dev, matvec, rmatvec)

    # The rotations of the two QR factorizations (rho, c, s; rhobar, cbar, sbar) and zeta.
    zetabar, alphabar = alpha * beta, alpha
    rho = rhobar = cbar = 1.0
    sbar = zeta = 0.0
    h, hbar = v, loom.zeros(n, dtype=dt, device=dev)
    # The recurrences that estimate ||r|| without forming it.
    betadd, betad, rhodold, tautildeold, thetatilde, d = beta, 0.0, 1.0, 0.0, 0.0, 0.0
    normA2 = alpha * alpha
    maxrbar, minrbar = 0.0, 1e100
    normA, condA, normx = math.sqrt(normA2), 1.0, 0.0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    normr, normar = beta, alpha * beta
    itn = istop = 0
    if normar == 0 or normb == 0:
        if normar != 0:  # b = 0 with a nonzero x0: x = 0 is the solution
            x = loom.zeros(n, dtype=dt, device=dev)
        if show:
            print(f"lsmr: {_MESSAGES[0]}")
        return x, istop, itn, normr, normar, normA, condA, normx

    while itn < maxiter:
        itn += 1
        # Next bidiagonalization step; when beta vanishes, v and alpha stay as they are.
        u_next = matvec(v) - alpha * u
        beta_d = loom.linalg.norm(u_next)
        u_unit = u_next / beta_d
        v_next = rmatvec(u_unit) - beta_d.astype(dt) * v
        beta, alpha_new = host_reals(beta_d, loom.linalg.norm(v_next))
        if beta > 0:
            u = u_unit
            alpha = alpha_new
            v = v_next * (1.0 / alpha) if alpha > 0 else v_next
        else:
            u = u_next

        # Rotation eliminating damp, then the QR step of the lower bidiagonal matrix.
        chat, shat, alphahat = sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        # The second QR (of R^T), which makes LSMR minimize ||A^H r||.
        rhobarold, zetaold = rhobar, zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar

        hbar = h - (thetabar * rho / (rhoold * rhobarold)) * hbar
        x = x + (zeta / (rho * rhobar)) * hbar
        h = v - (thetanew / rho) * h

        # ||r||: apply the rotations to the right-hand side and back-substitute one step.
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d += betacheck * betacheck
        normr = math.sqrt(d + (betad - taud) ** 2 + betadd * betadd)

        # ||A|| (Frobenius norm of the bidiagonal matrix so far) and cond(A).
        normA2 += beta * beta
        normA = math.sqrt(normA2)
        normA2 += alpha * alpha
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        condA = max(maxrbar, rhotemp) / min(minrbar, rhotemp)

        normar = abs(zetabar)
        normx = float(loom.linalg.norm(x))
        test1 = normr / normb
        test2 = normar / (normA * normr) if normA * normr != 0 else math.inf
        test3 = 1 / condA
        t1 = test1 / (1 + normA * normx / normb)
        rtol = btol + atol * normA * normx / normb
        istop = stop_reason(itn, maxiter, test1, test2, test3, t1, rtol, atol, ctol)
        if istop > 0:
            break
    if show:
        print(f"lsmr: {_MESSAGES[istop]} (istop = {istop}, itn = {itn}, normr = {normr:.3e}, "
              f"normar = {normar:.3e}, normA = {normA:.3e}, condA = {condA:.3e})")
    return x, istop, itn, normr, normar, normA, condA, normx
