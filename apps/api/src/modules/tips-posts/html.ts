import sanitizeHtml from 'sanitize-html';

/**
 * The HTML a tip post or the winnings page may hold: what the rich-text editor produces (text
 * formatting, lists, links, tables) and nothing that runs. Everything else is removed on save.
 */
const allowList: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code',
    'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'sub', 'sup', 'mark', 'span',
    'ul', 'ol', 'li', 'a',
    'table', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    ol: ['start'],
    th: ['colspan', 'rowspan', 'colwidth'],
    td: ['colspan', 'rowspan', 'colwidth'],
    col: ['span'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  selfClosing: ['br', 'hr', 'col'],
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
  },
};

export function sanitizeTipHtml(html: string): string {
  return sanitizeHtml(html, allowList).trim();
}

/** A script tag is not content that lost some formatting: it is refused, naming the field. */
export function containsScript(html: string): boolean {
  return /<\s*\/?\s*script\b/i.test(html);
}

/** Whether sanitized HTML shows anything (text or a table). */
export function hasVisibleContent(html: string): boolean {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '') !== '' || /<table/i.test(html);
}
