/// The one page that sends the browser on to an address: the launch file `jarvis web` opens
/// (to the address with the one-time secret) and the answer to that secret (to the page
/// itself, the secret gone from the address bar) are both this page.
///
/// A refresh, not a redirect, so that the next request starts on the page's own origin; its
/// empty icon keeps the browser from asking for `/favicon.ico`, which lies outside the page's
/// path. `address` is one `jarvis web` made (a loopback URL of hex and slashes), never input.
enum RefreshPage {
    /// The page's HTML.
    static func html(to address: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">\
        <meta http-equiv="refresh" content="0;url=\(address)"><link rel="icon" href="data:,"><title>Jarvis</title></head>\
        <body><p><a href="\(address)">Open the Jarvis inspector</a></p></body></html>

        """
    }
}
