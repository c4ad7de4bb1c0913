// #region snippet
import document from 'movie-log/openapi.json' with { type: 'json' }

console.log(document.info.title, Object.keys(document.paths))
// #endregion snippet
