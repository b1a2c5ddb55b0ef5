function out = grader_trip_(op, arg)
% The runtime ban tripwire. 'install' writes a recorder for each banned function Octave
% has onto the front of the path; a recorder notes a call made by the student's code and
% calls the original through a handle taken before the recorders shadowed it.
% Whose call it is: the innermost caller with a file, unless that file is Octave's or the
% grader's own (on the path before any student code ran) and names the function itself
% (median calling sum). Any other file is the student's, wherever it lies (a file the code
% wrote into /tmp); a library file that never names the function only passes on what the
% student handed it (nthargout(1, 'sum', x)), so the caller behind it is looked at.
% mlock: `clear all` or `clear functions` in student code would otherwise reset this state.
% Only built-ins are called (no fullfile, tempdir, strsplit...): a student's file can replace an
% .m function for this code too, and the files named like the built-ins used here are not loaded.
  persistent watching found student_dir originals trusted named busy
  out = '';
  if isempty(watching)
    watching = false;
    found = {};
    named = {{}, {}};
    busy = false;
  end
  switch op
    case 'install'
      mlock();
      student_dir = [pwd() filesep()];
      trusted = grader_trip_trusted_(student_dir);
      dir = sprintf('%s%sgrader_tripwire_%d', getenv('TMPDIR'), filesep(), getpid());
      if isempty(getenv('TMPDIR'))
        dir = sprintf('%s%sgrader_tripwire_%d', P_tmpdir(), filesep(), getpid());
      end
      __mkdir__(dir);
      originals = struct();
      for k = 1:numel(arg)
        name = arg{k};
        kind = exist(name);
        if any(kind == [2 3 5])
          fid = fopen([dir filesep() name '.m'], 'w');
          fprintf(fid, 'function varargout = %s(varargin)\n  original = grader_trip_(''hit'', ''%s'');\n', name, name);
          if kind == 5     % a built-in: builtin() reaches it past the recorder
            fprintf(fid, '  [varargout{1:nargout + (nargout == 0)}] = builtin(''%s'', varargin{:});\nend\n', name);
          else             % a library .m file: a handle taken now still points at it
            originals.(name) = str2func(name);
            fprintf(fid, '  [varargout{1:nargout + (nargout == 0)}] = original(varargin{:});\nend\n');
          end
          fclose(fid);
        end
      end
      warning('off', 'Octave:shadowed-function');
      addpath(dir);
    case 'start'
      watching = arg;
      found = {};
    case 'stop'
      out = grader_join_(found);
      watching = false;
      found = {};
    case 'hit'
      if isfield(originals, arg)
        out = originals.(arg);
      end
      if watching && ~busy     % busy: the tripwire's own calls (reading a library file) are nobody's
        busy = true;
        [file, line, named] = grader_trip_whose_(arg, dbstack('-completenames'), trusted, student_dir, named);
        busy = false;
        if ~isempty(file)
          found{end + 1} = sprintf('{"b":"%s","f":"%s","l":%d}', grader_hex_(arg), grader_hex_(file), line);
        end
      end
  end
end

function trusted = grader_trip_trusted_(student_dir)
% Octave's and the grader's folders: the path before any student code ran, but the student's folder.
  entries = regexp(path(), pathsep(), 'split');
  trusted = {};
  for k = 1:numel(entries)
    entry = [entries{k} filesep()];
    if ~isempty(entries{k}) && ~strcmp(entries{k}, '.') && ~strncmp(student_dir, entry, numel(entry))
      trusted{end + 1} = entry;
    end
  end
end

function [file, line, named] = grader_trip_whose_(name, stack, trusted, student_dir, named)
% The place in the student's code behind a call of `name`, or '' when the call is Octave's or the grader's.
  file = '';
  line = 0;
  for k = 3:numel(stack)    % 1: this tripwire, 2: the recorder
    f = stack(k).file;
    if isempty(f)
      continue;
    end
    if grader_trip_under_(f, trusted)
      [own, named] = grader_trip_names_(f, name, named);
      if own
        return;
      end
      continue;             % passed on: whoever called this library code made the call
    end
    file = f;
    line = stack(k).line;
    for j = k:numel(stack)  % the student's own file behind generated code, when there is one
      if strncmp(stack(j).file, student_dir, numel(student_dir))
        file = stack(j).file(numel(student_dir) + 1:end);
        line = stack(j).line;
        return;
      end
    end
    return;
  end
end

function yes = grader_trip_under_(file, trusted)
  yes = false;
  for k = 1:numel(trusted)
    if strncmp(file, trusted{k}, numel(trusted{k}))
      yes = true;
      return;
    end
  end
end

function [yes, named] = grader_trip_names_(file, name, named)
% Does a library file's code (comments aside) name `name`? Cached: one read per file and name.
  key = [name ':' file];
  at = find(strcmp(named{1}, key), 1);
  if ~isempty(at)
    yes = named{2}{at};
    return;
  end
  text = '';
  fid = fopen(file, 'r');
  if fid >= 0
    text = fread(fid, Inf, '*char')';
    fclose(fid);
  end
  code = regexprep(text, '(?m)^[ \t]*[%#][^\n]*', '');   % Octave's . matches a newline too
  yes = ~isempty(regexp(code, ['(?<![\w.])' name '(?!\w)'], 'once'));
  named{1}{end + 1} = key;
  named{2}{end + 1} = yes;
end
