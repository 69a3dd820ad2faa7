/**
 * Phrase rules for text that talks to the agent reading it in ways the other lists miss: an
 * assistant hailed "when you read this", the earlier rules declared a test or void, a claim to
 * be the real user, a standing order that assistants obey what pages say, the conversation
 * declared never to have happened, a secret asked for backwards or as the end of a sentence,
 * the setup asked for by who wrote it. Same syntax as instruction-phrases, merged into its
 * rule set.
 *
 * Each was written from the attack's shape, checked against the benign corpora's wording; the
 * ones whose words also run through ordinary mail or manuals ("the previous instructions were
 * wrong", "repeat after me", "tell the customer") are weak: they flag only beside a second sign.
 */
import { strongRule as strong, weakRule as weak, type PhraseRule } from './phrase-matcher.js';

/** Word lists of the reader-directive rules. */
export const READER_DIRECTIVE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  // Reading the text at hand.
  readThis: ['read', 'reads', 'see', 'sees', 'process', 'processes', 'parse', 'parses', 'receive', 'receives', 'get', 'gets', 'encounter', 'encounters', 'find', 'finds', 'scan', 'scans'],
  // Earlier rules declared to no longer count.
  voidWord: ['test', 'fake', 'mistake', 'joke', 'trick', 'void', 'obsolete', 'invalid', 'cancelled', 'canceled', 'revoked', 'deprecated', 'superseded', 'fictional', 'decoy', 'placeholder'],
  ruleNoun: ['instructions', 'instruction', 'rules', 'guidelines', 'directives', 'prompt', 'prompts', 'orders', 'restrictions', 'constraints', 'policies'],
  // What an agent may be told to obey.
  orderNoun: ['instructions', 'instruction', 'commands', 'command', 'directions', 'directives', 'orders', 'requests'],
  // Where an agent finds text it should not obey.
  foundIn: ['web', 'webpages', 'websites', 'pages', 'page', 'documents', 'emails', 'messages', 'content', 'tools', 'results', 'files', 'comments', 'reviews', 'data'],
  // Who a message may claim to be.
  trueSpeaker: ['user', 'owner', 'admin', 'administrator', 'developer', 'human', 'operator', 'customer', 'boss'],
  hiddenSecret: ['secret', 'password', 'passcode', 'passphrase', 'pin'],
  answering: ['summarizing', 'summarising', 'answering', 'responding', 'replying', 'writing', 'drafting'],
  // Who is told to obey: an AI by name, or agents and models in general.
  obeyer: ['ai', 'llm', 'llms', 'gpt', 'chatgpt', 'assistant', 'assistants', 'agent', 'agents', 'model', 'models', 'bot', 'bots', 'chatbot', 'chatbots'],
  // Asking for something to be handed over or put in words.
  askSetup: ['reveal', 'print', 'repeat', 'output', 'show', 'display', 'disclose', 'tell', 'give', 'share', 'recite', 'quote', 'list', 'provide', 'describe', 'explain', 'summarize', 'summarise', 'restate'],
  scare: ['compromised', 'hacked', 'suspended', 'locked', 'frozen', 'breached', 'disabled', 'terminated'],
};

/** The reader-directive rules. `id` is stable and appears in scan output. */
export const READER_DIRECTIVE_RULES: readonly PhraseRule[] = [
  // "Assistant, when you read this, …": a human assistant is hailed the same way in mail, so weak.
  weak('addressed.when-you-read-this', 'addressed_to_ai', '@aiName ~2 when|once|if|as|after ~1 you ~1 @readThis ~1 this'),
  weak('tool.call-tool-with', 'tool_call', '@callVerb ~1 the|your ~2 tool|function ~1 with|using|passing'),
  // The earlier rules were a test; the real ones follow.
  weak('override.prior-rules-void', 'override', '@prior ~2 @ruleNoun ~1 were|are|was|is ~2 a|an|just|only|all ~1 @voidWord'),
  weak('override.real-rules-are', 'override', 'the|your ~1 real|actual|true ~1 @ruleNoun ~1 are|is|follow'),
  strong('addressed.real-user-speaking', 'addressed_to_ai', 'this ~1 is ~1 the|your ~1 real|actual|true|genuine ~1 @trueSpeaker ~1 speaking|talking|writing'),
  weak('override.cancel-previous-request', 'override', 'cancel|drop|abort|abandon ~1 the|my|your|that ~1 previous|prior|earlier|original|last ~1 request|task|instruction|instructions|order'),
  strong('override.obey-found-text', 'override', '@obeyer ~2 must|should|shall|will|has|have ~2 always ~2 obey|follow|execute|comply|heed ~3 @orderNoun ~2 found|in|from|on|inside ~2 @foundIn'),
  strong('override.conversation-never-happened', 'override', 'pretend|imagine|assume|act ~3 the|this|our ~1 conversation|chat|messages|instructions ~1 so|up|until ~1 far|now ~2 never|did ~1 happened|existed|happen|exist'),
  weak('override.repeat-after-me', 'override', 'repeat|say ~1 after ~1 me'),
  weak('override.i-have-no-rules', 'override', 'i ~1 have|am|follow ~1 no|without ~1 rules|restrictions|limits|filters|guidelines|boundaries'),
  // The secret asked for in a form that slips past a verbatim check.
  strong('exfil.spell-secret', 'exfiltration', 'spell ~3 the|your ~1 @hiddenSecret ~1 word|key|code|phrase'),
  strong('exfil.secret-backwards', 'exfiltration', 'write|print|say|output|type|spell|give ~2 the|your ~1 @hiddenSecret ~3 backwards|backward|reversed|reverse'),
  strong('exfil.complete-with-secret', 'exfiltration', 'complete|finish|continue|end ~3 sentence|phrase|text|line ~3 with ~1 the|your ~1 @hiddenSecret'),
  // The setup, asked for by who wrote it.
  strong('exfil.guidelines-makers-gave', 'exfiltration', '@askSetup ~3 the ~1 @ruleWord ~2 the|your ~1 @makers ~1 gave|give|provided|set|wrote ~1 you'),
  strong('exfil.confidential-setup-given', 'exfiltration', '@handOver ~3 the|your ~1 confidential|secret|hidden|private|internal ~1 configuration|config|setup|instructions|prompt ~2 you ~1 were|are|have|had|got ~2 given|handed|provided|assigned|told'),
  strong('exfil.start-of-conversation', 'exfiltration', 'what ~2 was|were ~1 written|said|stated|typed|put ~3 beginning|start|top ~1 of ~1 this|the|our ~1 conversation|chat|session'),
  weak('exfil.words-of-the-prompt', 'exfiltration', 'first|last|opening ~3 words|lines|sentences|characters|letters ~1 of ~1 the|this ~1 prompt|instructions'),
  weak('exfil.your-full-instructions', 'exfiltration', 'with|include|including|containing|contains ~2 your ~1 full|complete|entire|whole|exact|original|verbatim ~1 @strictInstructions'),
  // Told to pass a scare on to the user while doing the job it was given.
  weak('hijack.while-answering-tell-user', 'task_hijack', 'when|while|before|after ~1 @answering ~5 tell|inform|warn|notify|alert ~1 the ~1 user|reader|customer|recipient'),
  weak('hijack.account-scare', 'task_hijack', 'account|accounts|card|password ~2 is|has|have|was|were|been ~2 @scare'),
];
