//! The eval runner and the one-model path against the replay server: a pass, a miss, a change outside the
//! ask's part caught, an ask that must be held; what the patch request carries per server kind; the
//! one-model path taken when the server was learned not to plan with tools, with its targets chosen here.

use redline_agent::eval::{self, Ask, Expect};
use redline_agent::provider::Learned;
use redline_agent::{Pace, ProviderConfig, ReplayServer, Reply};
use serde_json::{Value, json};

fn patch(operations: Value) -> Reply {
    Reply {
        patch: Some(json!({ "operations": operations })),
        ..Reply::default()
    }
}

fn plan(changes: &str, targets: &[&str]) -> Reply {
    Reply {
        tool_call: Some(
            json!({"name": "patch_resume", "arguments": {"changes": changes, "targets": targets}}),
        ),
        ..Reply::default()
    }
}

fn say(text: &str) -> Reply {
    Reply {
        say: Some(text.to_owned()),
        ..Reply::default()
    }
}

fn add_python() -> Ask {
    Ask {
        name: "add a skill keyword".into(),
        kind: "add".into(),
        single: true,
        message: "Add Python to my skills.".into(),
        selected: None,
        resume: None,
        expect: vec![Expect {
            at: "/skills".into(),
            has: Some("Python".into()),
            ..Expect::default()
        }],
        part: vec!["/skills".into()],
        held: false,
        posting: None,
    }
}

/// Runs `ask` against a replay server answering `replies`, asked the way `learned` says.
async fn run(ask: &Ask, replies: Vec<Reply>, learned: &Learned) -> (eval::Outcome, Vec<Value>) {
    let server = ReplayServer::start(replies, Pace::default()).await.unwrap();
    let config = ProviderConfig::new(Some(server.base_url()), None);
    let dir = tempfile::tempdir().unwrap();
    let outcome = eval::run(&config, learned, ask, dir.path()).await;
    (outcome, server.requests())
}

/// The replies of a turn that plans to add to the first skill's keywords, adds `keyword` there, and says so.
fn adds_keyword(keyword: &str) -> Vec<Reply> {
    vec![
        plan("Add Python", &["/skills/0/keywords"]),
        patch(json!([{"op": "add", "path": "/skills/0/keywords/-", "value": keyword}])),
        say("Done."),
    ]
}

fn one_model() -> Learned {
    Learned {
        patch_format: "json_object".into(),
        streams_tools: false,
        calls_tools: false,
    }
}

#[tokio::test]
async fn an_ask_done_as_asked_passes() {
    let replies = adds_keyword("Python");
    let (outcome, requests) = run(&add_python(), replies, &Learned::default()).await;
    assert!(outcome.pass, "{outcome:?}");
    assert_eq!(outcome.revisions, 1);
    assert_eq!(outcome.broke, None);
    assert!(
        outcome
            .asked
            .starts_with("tools, json_schema, held to the targets"),
        "{}",
        outcome.asked
    );
    // The replay server reports usage: the tokens are the server's own figures.
    assert!(outcome.tokens_in.is_some_and(|n| n > 0));
    // A server that takes a schema is sent the targets' schema as `json_schema`.
    assert_eq!(requests[1]["response_format"]["type"], "json_schema");
    let schema = requests[1]["response_format"]["json_schema"]["schema"].to_string();
    assert!(schema.contains("/skills/0/keywords/-") && !schema.contains("/basics/name"));
}

#[tokio::test]
async fn an_ask_not_done_is_a_miss_and_a_change_outside_its_part_is_caught() {
    let replies = adds_keyword("Perl");
    let (outcome, _) = run(&add_python(), replies, &Learned::default()).await;
    assert!(!outcome.pass);
    assert_eq!(outcome.broke, None);
    assert_eq!(
        outcome.miss.as_deref(),
        Some("“Python” is not under /skills")
    );

    // The planner names a target outside the ask's part; what it commits there breaks an invariant.
    let replies = vec![
        plan(
            "Add Python",
            &["/skills/0/keywords", "/interests/0/keywords"],
        ),
        patch(json!([
            {"op": "add", "path": "/skills/0/keywords/-", "value": "Python"},
            {"op": "add", "path": "/interests/0/keywords/-", "value": "Python"}
        ])),
        say("Done."),
    ];
    let (outcome, _) = run(&add_python(), replies, &Learned::default()).await;
    assert!(!outcome.pass);
    assert_eq!(
        outcome.broke.as_deref(),
        Some("/interests/0/keywords/2 changed, outside the ask's part")
    );
}

#[tokio::test]
async fn an_ask_that_must_be_held_passes_only_when_nothing_is_committed() {
    let rename = Ask {
        name: "change the name (held)".into(),
        kind: "hold".into(),
        message: "Change my name to Bob Smith.".into(),
        held: true,
        ..add_python()
    };
    let replies = vec![
        plan("Rename", &["/basics/name"]),
        patch(json!([{"op": "replace", "path": "/basics/name", "value": "Bob Smith"}])),
        say("It waits for you."),
    ];
    let (outcome, _) = run(&rename, replies, &Learned::default()).await;
    assert!(outcome.pass, "{outcome:?}");
    assert_eq!(outcome.revisions, 0);
}

#[tokio::test]
async fn a_server_learned_not_to_plan_gets_the_ask_planned_here_and_its_schema_in_json_mode() {
    // One request only: the patch model's. The chat model is never asked.
    let replies = vec![patch(
        json!([{"op": "add", "path": "/skills/0/keywords/-", "value": "Python"}]),
    )];
    let ask = Ask {
        message: "Add Python to my Web Development skills.".into(),
        ..add_python()
    };
    let (outcome, requests) = run(&ask, replies, &one_model()).await;
    assert!(outcome.pass, "{outcome:?}");
    assert!(
        outcome
            .asked
            .starts_with("one model, json_object, held to the targets")
    );
    assert!(
        outcome
            .said
            .starts_with("Saved as revision 2: Add “Python”"),
        "{}",
        outcome.said
    );
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert!(request.get("tools").is_none());
    // JSON mode with the schema beside it (llama.cpp's server turns it into a grammar): the targets'
    // places, and only the verbs the ask's words need.
    assert_eq!(request["response_format"]["type"], "json_object");
    let schema = &request["response_format"]["schema"];
    let kinds = schema["properties"]["operations"]["items"]["anyOf"]
        .as_array()
        .unwrap();
    assert!(
        kinds.iter().all(|k| k["properties"]["op"]["enum"]
            == json!([
                "add",
                "appendSentence",
                "prependSentence",
                "appendParagraph",
                "prependParagraph"
            ])
            || k["properties"]["op"]["enum"] == json!(["add"])),
        "{kinds:#?}"
    );
    assert!(kinds.iter().all(|k| {
        k["properties"]["path"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p.as_str().unwrap().starts_with("/skills/0/"))
    }));
    // The prompt: the part, one field a line, well under a small model's 2,048 tokens.
    let prompt = request["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("/skills/0/keywords/0: HTML") && !prompt.contains("Richard"),
        "{prompt}"
    );
    assert!(
        request.to_string().len() < 4_000,
        "{} bytes",
        request.to_string().len()
    );
}

#[tokio::test]
async fn on_the_one_model_path_a_question_gets_an_answer_and_no_tools() {
    let ask = Ask {
        message: "What should I add to my skills?".into(),
        ..add_python()
    };
    let (outcome, requests) = run(&ask, vec![say("Python is in demand.")], &one_model()).await;
    assert_eq!(requests.len(), 1);
    assert!(requests[0].get("tools").is_none());
    assert_eq!(outcome.said, "Python is in demand.");
    assert_eq!(outcome.miss.as_deref(), Some("nothing was committed"));
}

#[tokio::test]
async fn a_server_that_only_does_tools_gets_the_targets_schema_as_the_tools_parameters() {
    let replies = adds_keyword("Python");
    let tools_only = Learned {
        patch_format: "tool".into(),
        ..Learned::default()
    };
    let (outcome, requests) = run(&add_python(), replies, &tools_only).await;
    assert!(
        outcome
            .asked
            .starts_with("tools, tool, held to the targets"),
        "{}",
        outcome.asked
    );
    let request = &requests[1];
    assert!(request.get("response_format").is_none());
    assert_eq!(
        request["tool_choice"]["function"]["name"],
        "write_operations"
    );
    let parameters = request["tools"][0]["function"]["parameters"].to_string();
    assert!(parameters.contains("/skills/0/keywords/-") && !parameters.contains("/work/0"));
}

/// The connection test learns whether the chat model plans: a call that names a target in its resume is
/// yes; one that names none, or a place that is not there, is no, and the turns then plan here.
#[tokio::test]
async fn the_connection_test_learns_whether_the_chat_model_plans_with_tools() {
    for (planner, plans) in [
        (plan("Add Python", &["/skills/0/keywords"]), true),
        (plan("Add Python", &["/skills"]), true),
        (plan("][", &["description"]), false),
        (plan("Add Python", &[]), false),
        (say("Sure, Python is a great skill."), false),
    ] {
        let replies = vec![say("OK"), patch(json!([])), planner.clone()];
        let server = ReplayServer::start(replies, Pace::default()).await.unwrap();
        let mut config = ProviderConfig::new(Some(server.base_url()), None);
        config.chat_model = "replay-chat".into();
        config.patch_model = "replay-patch".into();
        let provider = redline_agent::Provider::new(config);
        let report = redline_agent::probe::test_connection(&provider).await;
        assert!(report.works());
        assert_eq!(report.calls_tools, plans, "{planner:?}");
        assert_eq!(provider.learned().calls_tools, plans);
        assert_eq!(
            server.requests()[2]["messages"][1]["content"],
            "Add Python to my skills."
        );
    }
}

/// The shipped suite's letter asks, against a replay server on the one-model path: a small model's prose
/// that names the company and the role in three paragraphs passes; one that names neither misses, in
/// words; one that commits a claim in neither the resume nor the posting cannot, as the claim waits.
#[tokio::test]
async fn a_letter_ask_is_checked_as_a_letter() {
    let suite = eval::Suite::shipped();
    let ask = suite
        .asks
        .iter()
        .find(|a| a.kind == "letter" && a.name.contains("data job"))
        .expect("the suite has letter asks");
    let prose = |text: &str| Reply {
        say: Some(text.to_owned()),
        ..Reply::default()
    };
    let good = "I am applying for the Data Engineer position at Globex, to own your pipelines.\n\n\
At Pied Piper I built an algorithm for artists and I write Python every day of the week.\n\n\
I would welcome a conversation with the team at Globex about this role and its pipelines.\n";
    let (outcome, requests) = run(ask, vec![prose(good)], &one_model()).await;
    assert!(outcome.pass, "{outcome:?}");
    assert_eq!(outcome.revisions, 1);
    assert!(
        requests[0].get("response_format").is_none(),
        "asked for prose"
    );

    let vague = "I am applying for this position because I like working with data every day.\n\n\
My work has taught me many things about software and about people and teams.\n\n\
I would welcome a conversation about how I could help your team in the months ahead.\n";
    let (outcome, _) = run(ask, vec![prose(vague)], &one_model()).await;
    assert!(!outcome.pass);
    assert_eq!(outcome.broke, None);
    assert_eq!(
        outcome.miss.as_deref(),
        Some("the company “Globex” is not named")
    );

    let invents = format!(
        "{good}\nAt Pied Piper I grew revenue by 40 % and led a team of 57 engineers in three offices.\n"
    );
    let (outcome, _) = run(ask, vec![prose(&invents)], &one_model()).await;
    assert!(
        outcome.pass,
        "the claim waits; the rest is a letter: {outcome:?}"
    );
    assert_eq!(outcome.broke, None);
}
