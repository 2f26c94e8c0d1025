import AggCore
import AggTestKit
import AggTransport
import AggVenues
import Testing

extension AdapterRegistration: CustomTestStringConvertible {
    public var testDescription: String { descriptor.id }
}

@Suite("Every standard venue keeps the adapter contract")
struct ContractTests {
    @Test(
        "declared capabilities answer, the others are unsupported, not found is not listed, errors are one line",
        arguments: AdapterRegistry.standard.registrations)
    func contract(_ registration: AdapterRegistration) async throws {
        let id = registration.descriptor.id
        let server = try FixtureServer(venues: [id])
        defer { server.stop() }
        let problems = await AdapterContract.check(
            registration, http: CurlHTTPClient(), baseURL: server.baseURL(for: id),
            samples: try ContractSamples.venue(id))
        #expect(problems == [], Comment(rawValue: "\(id):\n" + problems.joined(separator: "\n")))
    }

    @Test(
        "the recorded answers keep the contract in process too, as --offline serves them",
        arguments: AdapterRegistry.standard.registrations)
    func recorded(_ registration: AdapterRegistration) async throws {
        let problems = try await AdapterContract.checkRecorded(registration)
        #expect(
            problems == [], Comment(rawValue: "\(registration.descriptor.id):\n" + problems.joined(separator: "\n")))
    }
}
