//! The playground: conversations with a configured model about one or several connected
//! servers. The engine runs the turn (`periscope_core::model::agent::run_turn`); this module
//! keeps the conversations (`conversations/<id>.json` in the data folder, owner-only), asks
//! the user about each tool call before it runs ([`approval`]), and lists the model's calls in
//! History like the user's own ([`tools`]); they reach Traffic through the session itself.

pub mod approval;
pub mod tools;

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use periscope_core::model::chat::{Block, ChatMessage, ChatRole};
use periscope_core::model::conversation::Conversation;
use periscope_core::private_file;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A saved conversation, as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ChatSummary {
    pub id: String,
    pub title: String,
    pub server_ids: Vec<String>,
    pub provider_id: String,
    pub turns: u32,
}

/// The conversations open in this run, and the approvals their turns wait for.
#[derive(Default)]
pub struct Playground {
    chats: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Conversation>>>>,
    /// The turn running in each conversation, to cancel it.
    running: Mutex<HashMap<String, CancellationToken>>,
    pub approvals: approval::Approvals,
}

impl Playground {
    pub fn insert(&self, conversation: Conversation) -> Arc<tokio::sync::Mutex<Conversation>> {
        let id = conversation.id.clone();
        let chat = Arc::new(tokio::sync::Mutex::new(conversation));
        lock(&self.chats).insert(id, chat.clone());
        chat
    }

    /// An open conversation, else the saved one from `dir`.
    pub fn get(
        &self,
        dir: &Path,
        id: &str,
    ) -> Result<Arc<tokio::sync::Mutex<Conversation>>, Problem> {
        if let Some(chat) = lock(&self.chats).get(id).cloned() {
            return Ok(chat);
        }
        let conversation = load(dir, id)?;
        Ok(self.insert(conversation))
    }

    /// A new cancel token for a turn of `id`; refused while one runs.
    pub fn start_turn(&self, id: &str) -> Result<CancellationToken, Problem> {
        let mut running = lock(&self.running);
        if running.contains_key(id) {
            return Err(Problem::Busy);
        }
        let token = CancellationToken::new();
        running.insert(id.to_string(), token.clone());
        Ok(token)
    }

    pub fn end_turn(&self, id: &str) {
        lock(&self.running).remove(id);
    }

    /// Stops the running turn of `id` (its waiting approvals end as rejections); false when
    /// none runs.
    pub fn cancel(&self, id: &str) -> bool {
        self.approvals.forget_conversation(id);
        lock(&self.running).get(id).is_some_and(|t| {
            t.cancel();
            true
        })
    }
}

/// The folder conversations are saved in.
pub fn folder(data: &Path) -> PathBuf {
    data.join("conversations")
}

/// A conversation id as a file name: the ids are ours (`chat-<hex>`), anything else is refused
/// so no id reaches outside the folder.
fn file_of(dir: &Path, id: &str) -> Result<PathBuf, Problem> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(Problem::not_found(
            periscope_core::vocabulary::problem::Thing::Conversation,
            id,
        ));
    }
    Ok(dir.join(format!("{id}.json")))
}

/// Writes the conversation (owner-only, atomically: no half a conversation after a crash).
pub fn save(dir: &Path, conversation: &Conversation) -> Result<PathBuf, Problem> {
    let path = file_of(dir, &conversation.id)?;
    std::fs::create_dir_all(dir).map_err(|e| Problem::io(dir, e))?;
    let mut bytes = serde_json::to_vec_pretty(conversation).map_err(Problem::internal)?;
    bytes.push(b'\n');
    private_file::write_atomically(&path, &bytes).map_err(|e| Problem::io(&path, e))?;
    Ok(path)
}

pub fn load(dir: &Path, id: &str) -> Result<Conversation, Problem> {
    let path = file_of(dir, id)?;
    let bytes = std::fs::read(&path).map_err(|_| {
        Problem::not_found(periscope_core::vocabulary::problem::Thing::Conversation, id)
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| Problem::io(&path, format!("line {}, column {}", e.line(), e.column())))
}

/// The saved conversations, newest file first; unreadable files are skipped.
pub fn list(dir: &Path) -> Vec<ChatSummary> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| {
            let modified = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (modified, e.path())
        })
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files
        .into_iter()
        .filter_map(|(_, path)| {
            let c: Conversation = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
            Some(ChatSummary {
                turns: c.turns.len() as u32,
                id: c.id,
                title: c.title,
                server_ids: c.server_ids,
                provider_id: c.provider_id,
            })
        })
        .collect()
}

/// What the user attached to a message: a resource's contents, a prompt (prompts are the
/// user's to choose, as the spec intends; a prompt's messages start or join the conversation),
/// or a skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attachment {
    Resource {
        server_id: String,
        uri: String,
    },
    Prompt {
        server_id: String,
        name: String,
        #[cfg_attr(feature = "ts", ts(type = "Record<string, string>"))]
        arguments: serde_json::Map<String, serde_json::Value>,
    },
    /// A skill (SEP-2640), named by the URI of its `SKILL.md`: loaded when the message is
    /// sent (verified against its entry), its text joining the message with its origin.
    Skill {
        server_id: String,
        uri: String,
    },
}

/// The messages a turn adds before the model is asked, and the user's message of the turn:
/// the prompts' messages first (in order), then the user's text with the attached resources'
/// blocks. Without text, a prompt's last user message is the turn's message.
pub fn assemble(
    text: &str,
    mut prompt_messages: Vec<ChatMessage>,
    resource_blocks: Vec<Block>,
) -> Result<(Vec<ChatMessage>, Vec<Block>), Problem> {
    let mut user = Vec::new();
    if !text.trim().is_empty() {
        user.push(Block::text(text.trim()));
    } else if prompt_messages
        .last()
        .is_some_and(|m| m.role == ChatRole::User)
    {
        user = prompt_messages.pop().map(|m| m.content).unwrap_or_default();
    }
    user.extend(resource_blocks);
    if user.is_empty() {
        return Err(Problem::invalid(
            periscope_core::vocabulary::problem::Field::Message,
        ));
    }
    Ok((prompt_messages, user))
}

/// The first text of a message (for a title).
pub fn first_text(blocks: &[Block]) -> String {
    blocks
        .iter()
        .find_map(|b| match b {
            Block::Text { text } => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// A title from the first words of the user's first message.
pub fn title_of(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let mut title: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        title.push('…');
    }
    title
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_starts_the_turn_and_resources_join_the_users_message() {
        let prompt = vec![
            ChatMessage::user(vec![Block::text("You review code.")]),
            ChatMessage::assistant(vec![Block::text("Ready.")]),
            ChatMessage::user(vec![Block::text("Review this file.")]),
        ];
        let file = vec![Block::text("Resource demo://readme (text/plain):\nhello")];
        // No text: the prompt's last user message is the turn's, with the resource after it.
        let (before, user) = assemble("", prompt.clone(), file.clone()).unwrap();
        assert_eq!(before.len(), 2);
        assert_eq!(
            user,
            vec![Block::text("Review this file."), file[0].clone()]
        );
        // With text: every prompt message comes first, the text is the turn's message.
        let (before, user) = assemble(" and be kind ", prompt, vec![]).unwrap();
        assert_eq!(before.len(), 3);
        assert_eq!(user, vec![Block::text("and be kind")]);
        assert!(assemble("  ", vec![], vec![]).is_err());
    }

    #[test]
    fn a_conversation_is_saved_owner_only_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("periscope-chats-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut c = Conversation::new("chat-1", vec!["demo".into()], "local");
        c.title = "add 2 and 3".into();
        let path = save(&dir, &c).unwrap();
        assert_eq!(load(&dir, "chat-1").unwrap(), c);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(list(&dir)[0].title, "add 2 and 3");
        assert!(load(&dir, "../credentials").is_err());
    }
}
