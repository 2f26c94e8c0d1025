import AggCore

/// The header lines a request is sent with.
enum CurlRequestHeaders {
    /// `Accept: application/json` unless the request names its own `Accept`, then the request's
    /// headers, in order.
    ///
    /// `Origin` is dropped, however it is spelled: some venues throttle requests that carry one
    /// far harder. So is any header that could not be sent as one valid line (a name that is not
    /// an HTTP token, a value with CR, LF or NUL), which would otherwise smuggle in extra lines.
    static func lines(for headers: [HTTPHeader]) -> [String] {
        let sendable = headers.filter { header in
            header.name.lowercased() != "origin" && isToken(header.name) && isValidValue(header.value)
        }
        var lines: [String] = []
        if !sendable.contains(where: { $0.name.lowercased() == "accept" }) {
            lines.append("Accept: application/json")
        }
        for header in sendable {
            // libcurl reads "Name:" as "remove this header"; "Name;" sends it with an empty value.
            lines.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
        }
        return lines
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    private static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0 || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    }
}
