/**
 * The header search (docs/product.md §2, §5). Without script it is a GET form to /search?q=&type= (the server redirects
 * it to /search/{base64url}/{type}). With script: a click with empty text opens the input, with text it
 * searches; Enter searches; the clear button empties it; the panel offers 近期/全部 and past keywords.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from '../link';
import { useNavigate } from 'react-router-dom';
import { SEARCH_TYPE_ALL, SEARCH_TYPE_RECENT } from '../../constants';
import { addToHistory, parseHistory, SEARCH_HISTORY_KEY, searchPath, type SearchType } from '../../search';
import type { PageState } from '../../app-state';
import { usePage } from '../context';
import { readStorage, writeStorage } from '../lib/storage';
import { useHydrated } from '../lib/use-hydrated';

/** On a search page, the type it shows; elsewhere the default (recent). Same on server and browser. */
function typeShown(page: PageState): SearchType {
  return page.page === 'search' ? page.data.type : SEARCH_TYPE_RECENT;
}

export function SearchBox() {
  const page = usePage();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<SearchType>(() => typeShown(page));
  const [history, setHistory] = useState<string[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();
  const panelId = useId();
  const inputId = useId();
  const submit = useRef<HTMLButtonElement>(null);
  const hydrated = useHydrated();
  // The input stays expanded while it holds text, so the reader sees what was searched.
  const expanded = open || text !== '';

  // The panel's radio follows the search page being shown (近期 or 全部) after each navigation.
  useEffect(() => setType(typeShown(page)), [page]);

  // Storage is read after hydration: the server never knows a reader's history.
  useEffect(() => setHistory(parseHistory(readStorage(SEARCH_HISTORY_KEY))), []);

  const search = (keyword: string) => {
    const path = searchPath(keyword, type);
    if (!path) return;
    const next = addToHistory(history, keyword);
    setHistory(next);
    writeStorage(SEARCH_HISTORY_KEY, JSON.stringify(next));
    setOpen(false);
    navigate(path);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!text.trim()) {
      setOpen(true);
      input.current?.focus();
      return;
    }
    search(text);
  };

  return (
    <form
      ref={root}
      className="search"
      data-open={open}
      data-expanded={expanded}
      role="search"
      aria-label="站内搜索"
      action="/search"
      method="get"
      onSubmit={onSubmit}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        setOpen(false);
        // Escape in a search field also empties it (the browser's own action), and an empty input folds to nothing
        // once closed, as the panel does: focus moves to the search button, never left on a hidden element (issue
        // 29), from the field or from the panel's 近期/全部 (issue 38).
        submit.current?.focus();
      }}
      onBlur={(event) => {
        if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <input
        ref={input}
        id={inputId}
        className="search__input"
        type="search"
        name="q"
        value={text}
        maxLength={100}
        placeholder="搜索"
        aria-label="搜索关键词"
        aria-controls={panelId}
        autoComplete="off"
        onChange={(event) => setText(event.target.value)}
        onFocus={() => setOpen(true)}
        // After a search the input keeps focus with the panel closed: a click (no new focus event) reopens it.
        onClick={() => setOpen(true)}
      />
      {text && (
        <button
          type="button"
          className="search__clear"
          aria-label="清除"
          onClick={() => {
            setText('');
            input.current?.focus();
          }}
        >
          ×
        </button>
      )}
      <button
        ref={submit}
        type="submit"
        className="search__submit"
        aria-label="搜索"
        // With script the icon opens the folded field (a phone's search behind its icon, issue 38): it says whether
        // the field shows. Not before: without script the field is open on a desktop and the icon a plain submit.
        aria-expanded={hydrated ? expanded : undefined}
        aria-controls={hydrated ? inputId : undefined}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="10" cy="10" r="7" fill="none" stroke="currentColor" strokeWidth="2.4" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
        </svg>
      </button>
      <div className="search__panel" id={panelId}>
        <fieldset className="search__types">
          <legend className="visually-hidden">搜索范围</legend>
          <label>
            <input type="radio" name="type" value={SEARCH_TYPE_RECENT} checked={type === SEARCH_TYPE_RECENT} onChange={() => setType(SEARCH_TYPE_RECENT)} />
            近期
          </label>
          <label>
            <input type="radio" name="type" value={SEARCH_TYPE_ALL} checked={type === SEARCH_TYPE_ALL} onChange={() => setType(SEARCH_TYPE_ALL)} />
            全部
          </label>
        </fieldset>
        {history.length > 0 && (
          <ul className="search__history" aria-label="搜索历史">
            {history.map((word) => (
              <li key={word}>
                <Link
                  to={searchPath(word, type) ?? '/search'}
                  onClick={(event) => {
                    event.preventDefault();
                    setText(word);
                    search(word);
                  }}
                >
                  {word}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </form>
  );
}
