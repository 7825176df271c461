// glassworks docs: search-result snippets show formulas as readable text, not raw TeX.
// Sphinx builds a snippet from the text of the result's page, where a formula is still its TeX source
// (`\(\lambda_1\)`; MathJax typesets it only in the browser). Before that, each formula becomes plain text (λ_1).
(function () {
  const SYM = {alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η',
    theta: 'θ', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ',
    phi: 'φ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω', Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ',
    Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω', le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', in: '∈',
    notin: '∉', cdot: '·', times: '×', sum: 'Σ', prod: 'Π', infty: '∞', to: '→', rightarrow: '→', ldots: '…',
    dots: '…', cdots: '⋯', setminus: '∖', cap: '∩', cup: '∪', subseteq: '⊆', subset: '⊂', approx: '≈', pm: '±',
    lnot: '¬', land: '∧', lor: '∨', forall: '∀', exists: '∃', mid: '|', lvert: '|', rvert: '|', lVert: '‖', rVert: '‖',
    perp: '⊥', top: 'ᵀ', ell: 'ℓ', partial: '∂', nabla: '∇', star: '*', ast: '*', prime: '′', emptyset: '∅',
    mapsto: '↦', Rightarrow: '⇒', iff: '⇔', sim: '~', propto: '∝', lceil: '⌈', rceil: '⌉', lfloor: '⌊', rfloor: '⌋',
    langle: '⟨', rangle: '⟩', min: 'min', max: 'max', log: 'log', exp: 'exp', arg: 'arg'};
  function plain(tex) {
    return tex.trim()
      .replace(/^(\\\(|\\\[|\$\$?)/, '').replace(/(\\\)|\\\]|\$\$?)$/, '')
      .replace(/\\(?:mathrm|mathbf|mathcal|mathbb|mathit|mathtt|text|texttt|textbf|operatorname|boldsymbol)\s*\{([^{}]*)\}/g, '$1')
      .replace(/\\([A-Za-z]+)/g, (m, n) => (Object.prototype.hasOwnProperty.call(SYM, n) ? SYM[n] : ' '))
      .replace(/\\\|/g, '‖').replace(/\\[,;:! ]/g, ' ').replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
  }
  function install() {
    if (typeof Search === 'undefined' || !Search.htmlToText || Search.gwPlainMath) return;
    const orig = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, 'text/html');
      doc.querySelectorAll('.math').forEach((el) => { el.textContent = ' ' + plain(el.textContent) + ' '; });
      return orig(doc.documentElement.outerHTML, anchor);
    };
    Search.gwPlainMath = true;
  }
  install();
  document.addEventListener('DOMContentLoaded', install);
})();
