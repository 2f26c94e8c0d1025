import CCurl

/// Owns one libcurl multi handle and cleans it up when the last reference goes.
///
/// `@unchecked Sendable` invariant: only the engine thread calls libcurl with this handle, with
/// one exception, `curl_multi_wakeup`, which libcurl documents as callable from any thread at
/// any time. `curl_multi_cleanup` runs in `deinit`, when no other reference, and therefore no
/// other thread, can use the handle; by then the engine has removed every easy handle.
final class CurlMultiHandle: @unchecked Sendable {
    /// The `CURLM *`.
    let raw: UnsafeMutableRawPointer

    /// Creates a multi handle, or returns `nil` when libcurl cannot.
    init?() {
        guard curlIsInitialised, let raw = curl_multi_init() else { return nil }
        self.raw = raw
    }

    /// Interrupts a `curl_multi_poll` in progress, or makes the next one return at once.
    func wakeUp() {
        _ = curl_multi_wakeup(raw)
    }

    deinit {
        curl_multi_cleanup(raw)
    }
}
