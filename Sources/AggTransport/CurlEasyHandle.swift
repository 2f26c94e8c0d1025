import CCurl
import Glibc

/// Owns a libcurl easy handle and every piece of memory libcurl points into while it works.
///
/// libcurl keeps the pointers it is given (the error buffer, the header list, and, depending on
/// the version, option strings) until the handle is cleaned up. This class makes its own copy of
/// each, keeps it for the handle's whole life, and in `deinit` cleans the handle up before
/// freeing them. No pointer from a `withUnsafe...` scope ever reaches libcurl.
///
/// Not thread-safe: only the engine thread uses a handle.
final class CurlEasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer

    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var ownedStrings: [UnsafeMutablePointer<CChar>] = []
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// Creates a handle with its error buffer installed, or returns `nil` when libcurl cannot.
    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        // One byte more than libcurl ever writes, so the text always ends with a NUL.
        let size = Int(CURL_ERROR_SIZE) + 1
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
        _ = agg_curl_set_pointer(raw, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(raw)
        curl_slist_free_all(headerList)
        for string in ownedStrings { free(string) }
        errorBuffer.deallocate()
    }

    /// Sets a numeric option.
    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        agg_curl_set_long(raw, option, value)
    }

    /// Sets a string option from a copy that lives as long as the handle.
    func set(_ option: CURLoption, string: String) -> CURLcode {
        guard let copy = strdup(string) else { return CURLE_OUT_OF_MEMORY }
        ownedStrings.append(copy)
        return agg_curl_set_string(raw, option, copy)
    }

    /// Sets `CURLOPT_COPYPOSTFIELDS`: libcurl copies the bytes at once (the size must be set
    /// before, with `CURLOPT_POSTFIELDSIZE`), so the pointer does not outlive this call.
    func set(_ option: CURLoption, bytes: [UInt8]) -> CURLcode {
        // A NUL-terminated copy: libcurl reads exactly the size set, but an empty body must
        // still be a valid pointer.
        var copy = bytes
        copy.append(0)
        return copy.withUnsafeMutableBytes { buffer in agg_curl_set_pointer(raw, option, buffer.baseAddress) }
    }

    /// Sets an opaque pointer option (`CURLOPT_PRIVATE`, `CURLOPT_WRITEDATA`, ...).
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> CURLcode {
        agg_curl_set_pointer(raw, option, pointer)
    }

    /// Sets a write or header callback.
    func set(_ option: CURLoption, callback: agg_curl_data_callback) -> CURLcode {
        agg_curl_set_callback(raw, option, callback)
    }

    /// Sets the request header lines (`CURLOPT_HTTPHEADER`) from a list the handle owns.
    func setHeaderLines(_ lines: [String]) -> CURLcode {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                return CURLE_OUT_OF_MEMORY
            }
            list = longer
        }
        let code = agg_curl_set_slist(raw, CURLOPT_HTTPHEADER, list)
        guard code == CURLE_OK else {
            curl_slist_free_all(list)
            return code
        }
        curl_slist_free_all(headerList)
        headerList = list
        return code
    }

    /// libcurl's explanation of the last failure: its error buffer, or the generic text of
    /// `code` when the buffer is empty.
    func errorText(for code: CURLcode) -> String {
        var text = Substring(String(cString: errorBuffer))
        while let last = text.last, last.isNewline { text.removeLast() }
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : String(text)
    }

    /// The status code of the last response received.
    var responseCode: Int {
        var code = 0
        _ = agg_curl_get_long(raw, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The body size the response announces (`Content-Length`), or `nil` when it announces none.
    var announcedBodySize: Int? {
        var size: curl_off_t = -1
        guard agg_curl_get_off_t(raw, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &size) == CURLE_OK, size >= 0 else {
            return nil
        }
        return Int(size)
    }

    /// The URL last used, after redirects.
    var effectiveURL: String? {
        var url: UnsafeMutablePointer<CChar>?
        guard agg_curl_get_string(raw, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url else { return nil }
        return String(cString: url)
    }

    /// The `CURLOPT_PRIVATE` pointer of the easy handle `raw`.
    static func privatePointer(of raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var pointer: UnsafeMutableRawPointer?
        guard agg_curl_get_pointer(raw, CURLINFO_PRIVATE, &pointer) == CURLE_OK else { return nil }
        return pointer
    }
}
