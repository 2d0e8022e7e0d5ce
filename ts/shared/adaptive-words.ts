/**
 * The words text decision specification v3 weighs little: function words (articles,
 * prepositions, conjunctions, pronouns, auxiliaries, determiners and a few adverbs) of English,
 * German, French, Spanish, Italian, Portuguese, Dutch and Russian, lowercased as the text
 * specification v1 lowercases them. They carry a sentence's grammar, not what it names. Then the
 * English words that annotate a line rather than say what it is about (`Re:`, `[WIP]`, `(draft)`,
 * `- copy`, `(2nd edition)`): a line that gains one is the same line. The Rust
 * core holds the same list (`crates/simhash-core/src/adaptive/common_words.rs`); a test checks the
 * two equal.
 */
export const COMMON_WORDS: readonly string[] = (
  'a about above after again against all also am an and any are aren as at be because been ' +
  'before being below between both but by can cannot could couldn did didn do does doesn doing ' +
  'don down during each either else etc ever every few for from further had hadn has hasn have ' +
  'haven having he her here hers herself him himself his how however i if in into is isn it its ' +
  'itself just ll may me might more most must my myself neither no nor not of off on once only ' +
  'onto or other our ours ourselves out over own per re s same shall she should shouldn so some ' +
  'such t than that the their theirs them themselves then there these they this those through ' +
  'thus to too under until up upon us ve very via was wasn we were weren what when where ' +
  'whether which while who whom whose why will with within without won would wouldn yet you ' +
  'your yours yourself aber als am an auch auf aus bei bis das dass dem den der des die durch ' +
  'ein eine einem einen einer eines es für hat im in ist mit nach nicht noch nur oder sich sie ' +
  'sind so über um und unter vom von vor wie wird zu zum zur au aux avec ce ces cette dans de ' +
  'des du elle en est et il ils la le les leur leurs mais ne ou par pas plus pour qu que qui sa ' +
  'sans se ses son sont sur un une vos votre al como con del el entre es esta este hay las lo ' +
  'los más o para pero por se sin sobre su sus u una uno y che da della delle di e gli il nel nella ' +
  'non per più sono tra uno ao com da das do dos em na nas no nos os ou para pelo pela um uma ' +
  'bij dat de een en het in is met niet of om op te van voor zijn в во для до за и из к как на ' +
  'не но о об от по при с со что это или у ' +
  'fw fwd wip draft update updated new old patch rfc fyi copy backport deprecated edition final revised duplicate resend todo obsolete'
).split(' ');
