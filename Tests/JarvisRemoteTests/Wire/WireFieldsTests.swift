import JarvisCore
import Testing

@testable import JarvisRemote

/// The one reader of wire objects, in both directions: a request's params (the client's
/// mistake, `invalidParams`) and an agent's answer (the agent's fault, `storage`).
@Suite struct WireFieldsTests {
    private func paramsError(_ object: JSONObject, _ read: (WireFields<RPCError>) throws(RPCError) -> Void) -> RPCError?
    {
        do {
            try read(
                try WireFields(params: object, method: .get, allowed: ["container", "key", "reveal", "limit", "type"]))
            return nil
        } catch {
            return error
        }
    }

    @Test func paramsNameTheMemberAndWhatItMustBe() {
        let unknown = paramsError(["colour": "red"]) { (_) throws(RPCError) in }
        #expect(
            unknown == .invalidParams("get has no param 'colour' (its params: container, key, limit, reveal, type)"))
        let missing = paramsError([:]) { (fields) throws(RPCError) in _ = try fields.string("key") }
        #expect(missing == .invalidParams("get needs the param 'key' (a string)"))
        let wrong = paramsError(["key": 7]) { (fields) throws(RPCError) in _ = try fields.string("key") }
        #expect(wrong == .invalidParams("param 'key' of get must be a string"))
        let flag = paramsError(["reveal": "yes"]) { (fields) throws(RPCError) in _ = try fields.optionalBool("reveal") }
        #expect(flag == .invalidParams("param 'reveal' of get must be true or false"))
        let range = paramsError(["limit": 0]) { (fields) throws(RPCError) in
            _ = try fields.optionalInt("limit", in: 1...5)
        }
        #expect(range == .invalidParams("param 'limit' of get must be a whole number from 1 to 5"))
        let type = paramsError(["type": "complex"]) { (fields) throws(RPCError) in _ = try fields.type("type") }
        #expect(type?.message.hasPrefix("param 'type' of get must be one of string, ") == true)
        var read: (String, Bool?)?
        let fine = paramsError(["key": "k", "reveal": .null]) { (fields) throws(RPCError) in
            read = (try fields.string("key"), try fields.optionalBool("reveal"))
        }
        #expect(fine == nil && read?.0 == "k" && read?.1 == nil)
    }

    @Test func answersBlameTheAgentAndIgnoreMembersTheyDoNotKnow() throws {
        let fields = try WireFields(["pong": true, "later": 1], "a ping answer")
        #expect(try fields.bool("pong"))
        #expect(
            throws: JarvisError(.storage, "the agent sent a ping answer whose 'count' is missing or not a whole number")
        ) {
            try fields.int64("count")
        }
        #expect(throws: JarvisError(.storage, "the agent sent a ping answer that is not a JSON object")) {
            try WireFields(.array([]), "a ping answer")
        }
    }
}
