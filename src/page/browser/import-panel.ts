/**
 * The "Import your diary" panel, a script of its own loaded when the panel is first opened: a
 * file picked or dropped (a Letterboxd zip, a Trakt, Netflix or IMDb export, the log's own CSV)
 * is sent to `POST {base}/import` (the client's `importFile`), a bar follows the rows as the
 * server settles them, and the report says what became of them, with the unmatched rows to
 * download, correct and import again. A Netflix history whose days do not tell their form asks
 * for it. What it shares with the page (the client, the session) comes from the page: this
 * script holds only the panel.
 */
import type { FileImportReport, importFile, MovieLogHttpError } from '../../client/index'
import { element } from './dom'
import type { Session } from './token'

/** What the panel needs of the page. */
export interface ImportPanelContext {
  logUrl: string
  session: Session
  importFile: typeof importFile
  /** What a failed call means, in a sentence. */
  explain: (error: unknown) => string
  /** Shows the diary again, with what was imported. */
  reload: () => void
}

/** Fills the panel (`root`, its `<details>`) with its form; called once, on its first opening. */
export function showImportPanel(root: HTMLDetailsElement, context: ImportPanelContext): void {
  const file = element('input', {
    id: 'import-file',
    type: 'file',
    accept: '.zip,.csv,.json,.ndjson,.txt',
    'aria-describedby': 'import-what',
  })
  const days = element('input', {
    id: 'import-days',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'DD/MM/YYYY',
    'aria-describedby': 'import-days-error',
  })
  const daysError = element('p', { id: 'import-days-error', class: 'error' })
  const daysField = element('div', { class: 'field', hidden: '' }, [
    element('label', { for: 'import-days' }, ['Day form of the Netflix history']),
    days,
    daysError,
  ])
  const send = element('button', { type: 'submit' }, ['Import'])
  const form = element('form', { class: 'import-form', novalidate: '' }, [
    element('div', { class: 'drop' }, [
      element('label', { for: 'import-file' }, ['File to import']),
      file,
      element('p', { id: 'import-what' }, [
        'A Letterboxd export (the zip as downloaded), a Trakt history or ratings export, Netflix’s NetflixViewingHistory.csv, or your IMDb ratings export. Or drop it here.',
      ]),
    ]),
    daysField,
    send,
  ])
  const bar = element('progress', { id: 'import-progress', 'aria-label': 'Import', hidden: '' })
  const said = element('p', { class: 'status', role: 'status' })
  const report = element('div', { class: 'import-report' })
  root.append(form, bar, said, report)

  let running = false
  const run = async (chosen: File) => {
    if (running) return
    running = true
    send.disabled = true
    report.replaceChildren()
    bar.hidden = false
    bar.removeAttribute('value') // indeterminate while the file is on its way
    said.textContent = `Sending ${chosen.name}…`
    try {
      const result = await context.session.run('import a file', () => {
        const token = context.session.token()
        return context.importFile(context.logUrl, chosen, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          dateFormat: daysField.hidden ? undefined : days.value.trim() || undefined,
          onProgress: (done, total) => {
            if (!total) return
            bar.max = total
            bar.value = done
            said.textContent = `Importing ${chosen.name}: ${Math.floor((done / total) * 100)}%`
          },
        })
      })
      daysField.hidden = true
      said.textContent = `${chosen.name} imported.`
      report.replaceChildren(...reportOf(result, chosen.name))
      context.reload()
    } catch (error) {
      refused(error)
    } finally {
      bar.hidden = true
      running = false
      send.disabled = false
    }
  }

  // A file whose days do not tell their form: the field that names it, its problem beside it.
  const refused = (error: unknown) => {
    const { problem } = error as Partial<MovieLogHttpError>
    const asked = problem?.errors?.find((each) => each.parameter === 'dateFormat')
    if (!asked) {
      said.textContent = context.explain(error)
      return
    }
    said.textContent = `${chosen?.name ?? 'The file'} is not imported yet: its days need their form.`
    daysField.hidden = false
    daysError.textContent = `${asked.detail ?? ''}. Name it, then Import again.`
    days.setAttribute('aria-invalid', 'true')
    days.focus()
  }

  // The file last picked or dropped: sent again after its day form is named.
  let chosen: File | undefined
  file.addEventListener('change', () => {
    chosen = file.files?.[0]
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (chosen) void run(chosen)
    else said.textContent = 'Choose a file to import first.'
  })
  // Dropped anywhere on the panel: imported at once, as if picked and sent.
  root.addEventListener('dragover', (event) => {
    event.preventDefault()
    root.classList.add('dropping')
  })
  root.addEventListener('dragleave', () => root.classList.remove('dropping'))
  root.addEventListener('drop', (event) => {
    event.preventDefault()
    root.classList.remove('dropping')
    chosen = event.dataTransfer?.files[0] ?? chosen
    if (chosen) void run(chosen)
  })
}

/** The report in words, and the unmatched rows as a file to download. */
function reportOf(result: FileImportReport, name: string): HTMLElement[] {
  const counts: [string, number][] = [
    ...(result.kind === 'ratings'
      ? ([
          ['Rated', result.rated],
          ['Rated but not in your diary', result.notInDiary],
        ] as [string, number][])
      : []),
    ['Added', result.added],
    ['Already in your diary', result.skipped],
    ['Matched to IMDb by title', result.matched],
    ['Not matched', result.unmatched],
    ['Refused', result.refused],
    ['Episodes and trailers passed over', result.episodes + result.trailers],
  ]
  const parts: HTMLElement[] = [
    element(
      'dl',
      { class: 'counts' },
      counts.flatMap(([label, count]) => [
        element('dt', {}, [label]),
        element('dd', {}, [String(count)]),
      ]),
    ),
  ]
  if (result.unmatchedCsv !== null) {
    const csv = new Blob([result.unmatchedCsv], { type: 'text/csv' })
    const download = `${name.replace(/\.[^.]*$/, '')}.unmatched.csv`
    parts.push(
      element('p', {}, [
        element('a', { href: URL.createObjectURL(csv), download }, [
          `Download the ${result.unmatched} unmatched ${result.unmatched === 1 ? 'row' : 'rows'}`,
        ]),
        ': write each one’s IMDb link (the candidates column offers some), then import that file here.',
      ]),
    )
  }
  if (result.refusals.length > 0) {
    parts.push(
      element(
        'ul',
        { class: 'refusals' },
        result.refusals.map(({ line, issues }) =>
          element('li', {}, [
            `Line ${line}: ${issues.map((issue) => `${issue.path ? `${issue.path} ` : ''}${issue.message}`).join('; ')}`,
          ]),
        ),
      ),
    )
  }
  return parts
}
