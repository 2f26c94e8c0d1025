import AggCore
import Foundation
import Testing

@testable import AggServe

/// `agg serve`'s token: one check for --token, --token-file and AGG_TOKEN, and no error that
/// repeats the value.
@Suite("agg serve: the bearer token")
struct ServeTokenTests {
    static let good = "0123456789abcdef0123"

    @Test(
        "AGG_TOKEN is checked as --token is, and never echoed",
        arguments: [
            "short", "has a space in it, 16+", "tab\there-and-more-chars", String(repeating: "x", count: 257),
            "caf\u{E9}-caf\u{E9}-caf\u{E9}-caf\u{E9}",
        ])
    func environmentTokenIsChecked(value: String) {
        let result = ServeToken.resolve(flag: nil, file: nil, environment: ["AGG_TOKEN": value])
        #expect(
            result
                == .failure(
                    .init(
                        message:
                            "invalid AGG_TOKEN: expected a token of 16 to 256 printable characters (the value is not shown)",
                        exitCode: .usage)))
    }

    @Test("--token is refused without its value, and warns that ps shows it")
    func flag() throws {
        #expect(
            throws: AggError.usage(
                "invalid --token: expected a token of 16 to 256 printable characters (the value is not shown)")
        ) {
            try ServeToken.parseFlag("secret but short")
        }
        #expect(
            ServeToken.resolve(flag: Self.good, file: nil, environment: ["AGG_TOKEN": "other-token-0123456789"])
                == .success(
                    .init(
                        token: Self.good,
                        warning: "--token is visible to other users in ps; use --token-file PATH or AGG_TOKEN")))
    }

    @Test("--token-file: one line, the final line break dropped; unreadable or malformed is 78 naming the file")
    func file() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agg-token-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("token").path
        try (Self.good + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            ServeToken.resolve(flag: nil, file: path, environment: ["AGG_TOKEN": "ignored-token-0123456789"])
                == .success(.init(token: Self.good, warning: nil)))
        try "two words that are long enough\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            ServeToken.resolve(flag: nil, file: path, environment: [:])
                == .failure(
                    .init(
                        message:
                            "--token-file \(path): expected a token of 16 to 256 printable characters on one line (the content is not shown)",
                        exitCode: .configuration)))
        let missing = directory.appendingPathComponent("missing").path
        #expect(
            ServeToken.resolve(flag: nil, file: missing, environment: [:])
                == .failure(
                    .init(
                        message: "cannot read --token-file \(missing): No such file or directory",
                        exitCode: .configuration)))
        #expect(
            ServeToken.resolve(flag: Self.good, file: path, environment: [:])
                == .failure(.init(message: "give one of --token and --token-file, not both", exitCode: .usage)))
    }
}
