// The purchase page's only script: asks for the payment's status every 3 seconds while M-Pesa has
// not answered, then reloads so the server shows the outcome (new expiry, or the reason).
(function followPurchase() {
  var card = document.querySelector('[data-purchase]');
  if (!card) return;
  var url = '/api/portal/purchase/' + card.getAttribute('data-purchase');
  var polls = 0;
  function poll() {
    polls += 1;
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (body && body.purchase && body.purchase.status !== 'pending') {
          window.location.reload();
        } else if (polls < 200) {
          setTimeout(poll, 3000);
        }
      })
      .catch(function () {
        if (polls < 200) setTimeout(poll, 5000);
      });
  }
  setTimeout(poll, 2000);
})();
