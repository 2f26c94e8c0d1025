import AggCore
import CCurl

/// One request in flight: its easy handle, configured from the request, and the answer as it
/// arrives.
///
/// The engine thread alone creates, drives and frees a transfer. libcurl calls back with an
/// unretained pointer to this object, which is safe because the engine keeps the transfer in its
/// table of active transfers for as long as the handle is attached to the multi handle.
final class CurlTransfer {
    /// The caller waiting for this transfer.
    let ticket: CurlTicket
    /// The easy handle, owned by this transfer alone.
    let handle: CurlEasyHandle

    private let mailbox: CurlEngineMailbox
    private let totalTimeout: Double
    private let maximumBodySize: Int
    private var body: [UInt8] = []
    private var headers: [HTTPHeader] = []
    private var bodyExceededLimit = false

    /// Creates and configures the easy handle for `ticket`'s request.
    ///
    /// - Throws: `TransportError.invalidURL` for a URL libcurl cannot take, or the mapped error
    ///   of an option libcurl refuses.
    init(ticket: CurlTicket, settings: CurlTransferSettings, mailbox: CurlEngineMailbox) throws(TransportError) {
        guard let handle = CurlEasyHandle() else {
            throw .connection(url: ticket.request.url, detail: "libcurl could not create a transfer")
        }
        let timeouts = ticket.request.timeouts ?? settings.timeouts
        self.ticket = ticket
        self.handle = handle
        self.mailbox = mailbox
        self.totalTimeout = timeouts.total
        self.maximumBodySize = settings.maximumBodySize
        mailbox.transferCreated()
        try configure(timeouts: timeouts, userAgent: settings.userAgent)
    }

    deinit {
        mailbox.transferFreed()
    }

    /// The outcome once libcurl reports the transfer done with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, TransportError> {
        let url = ticket.request.url
        if bodyExceededLimit {
            return .failure(.responseTooLarge(url: url, limit: maximumBodySize))
        }
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        return .success(
            HTTPResponse(status: handle.responseCode, headers: headers, body: body, url: handle.effectiveURL ?? url))
    }

    // MARK: - Configuration

    private func configure(timeouts: HTTPTimeouts, userAgent: String) throws(TransportError) {
        let url = ticket.request.url
        guard !url.isEmpty, !url.utf8.contains(0) else { throw .invalidURL(url) }

        try check(handle.set(CURLOPT_URL, string: url))
        try check(handle.set(CURLOPT_NOSIGNAL, 1))
        try check(handle.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect)))
        try check(handle.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(timeouts.total)))
        try check(handle.set(CURLOPT_FOLLOWLOCATION, 1))
        try check(handle.set(CURLOPT_MAXREDIRS, 5))
        // An empty string asks for every encoding this libcurl can decode (gzip, deflate, ...).
        try check(handle.set(CURLOPT_ACCEPT_ENCODING, string: ""))
        try check(handle.set(CURLOPT_USERAGENT, string: userAgent))
        try check(handle.set(CURLOPT_SSL_VERIFYPEER, 1))
        try check(handle.set(CURLOPT_SSL_VERIFYHOST, 2))
        try check(handle.set(CURLOPT_PROTOCOLS_STR, string: "http,https"))
        try check(handle.set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https"))
        var headerLines = CurlRequestHeaders.lines(for: ticket.request.headers)
        if ticket.request.method == .post {
            try check(handle.set(CURLOPT_POSTFIELDSIZE, ticket.request.body.count))
            try check(handle.set(CURLOPT_COPYPOSTFIELDS, bytes: ticket.request.body))
            // No `Expect: 100-continue` round trip before a large body: one request, one answer.
            headerLines.append("Expect:")
        }
        try check(handle.setHeaderLines(headerLines))

        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(handle.set(CURLOPT_PRIVATE, pointer: context))
        try check(handle.set(CURLOPT_WRITEDATA, pointer: context))
        try check(handle.set(CURLOPT_HEADERDATA, pointer: context))
        try check(
            handle.set(CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receiveBody(data, length: size * count)
            })
        try check(
            handle.set(CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receiveHeaderLine(data, length: size * count)
            })
    }

    /// libcurl takes a timeout in whole milliseconds, where 0 means "none": round up, and keep a
    /// positive timeout from ever becoming "none".
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max((seconds * 1000).rounded(.up), 1), Double(Int32.max)))
    }

    private func check(_ code: CURLcode) throws(TransportError) {
        guard code == CURLE_OK else { throw error(for: code) }
    }

    private func error(for code: CURLcode) -> TransportError {
        TransportError(
            curlCode: code, url: ticket.request.url, timeoutSeconds: totalTimeout, detail: handle.errorText(for: code))
    }

    // MARK: - Callbacks (on the engine thread, inside curl_multi_perform)

    /// Appends a piece of the (decoded) body.
    ///
    /// - Returns: `length` to go on, or 0, which makes libcurl fail the transfer, once the body
    ///   would exceed the limit.
    private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, length: Int) -> Int {
        guard length > 0 else { return 0 }
        guard let data, body.count <= maximumBodySize - length else {
            bodyExceededLimit = true
            return 0
        }
        if body.isEmpty, let announced = handle.announcedBodySize, announced > length {
            // Room for the whole body at once: a market-wide answer of 160 KB otherwise grows
            // through five copies, touching twice its size in fresh pages.
            body.reserveCapacity(min(announced, maximumBodySize))
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    /// Records one header line. Every response in a chain of redirects (and any interim `100`)
    /// starts with its status line, which clears the headers of the previous one, so only the
    /// final response's headers remain.
    private func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>?, length: Int) -> Int {
        guard let data, length > 0 else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
        } else if line.first == " " || line.first == "\t" {
            // An obsolete folded continuation of the previous header's value.
            if !headers.isEmpty {
                headers[headers.count - 1].value += " " + line.trimmingHeaderWhitespace()
            }
        } else if let colon = line.firstIndex(of: ":") {
            headers.append(
                HTTPHeader(
                    name: line[..<colon].trimmingHeaderWhitespace(),
                    value: line[line.index(after: colon)...].trimmingHeaderWhitespace()))
        }
        return length
    }
}

extension StringProtocol {
    /// The text without surrounding spaces, tabs and line breaks.
    fileprivate func trimmingHeaderWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first.isNewline { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last.isNewline { text.removeLast() }
        return String(text)
    }
}
