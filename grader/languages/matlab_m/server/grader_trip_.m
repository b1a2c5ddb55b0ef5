function out = grader_trip_(op, arg)
% The runtime ban tripwire. 'install' writes a recorder for each banned function Octave
% has onto the front of the path; a recorder notes a call made from the student's own
% files (never from Octave's library, which may use sum itself) and calls the original.
  persistent watching found student_dir
  out = '';
  if isempty(watching)
    watching = false;
    found = {};
  end
  switch op
    case 'install'
      student_dir = [pwd() filesep()];
      dir = fullfile(tempdir(), 'grader_tripwire');
      mkdir(dir);
      for k = 1:numel(arg)
        name = arg{k};
        if any(exist(name) == [2 3 5])
          fid = fopen(fullfile(dir, [name '.m']), 'w');
          fprintf(fid, 'function varargout = %s(varargin)\n  grader_trip_(''hit'', ''%s'');\n', name, name);
          fprintf(fid, '  [varargout{1:max(nargout, 1)}] = builtin(''%s'', varargin{:});\nend\n', name);
          fclose(fid);
        end
      end
      warning('off', 'Octave:shadowed-function');
      addpath(dir);
    case 'start'
      watching = arg;
      found = {};
    case 'stop'
      out = strjoin(found, ',');
      watching = false;
      found = {};
    case 'hit'
      if watching
        stack = dbstack('-completenames');
        for k = 3:numel(stack)
          if ~isempty(stack(k).file)
            if strncmp(stack(k).file, student_dir, numel(student_dir))
              found{end + 1} = sprintf('{"b":"%s","f":"%s","l":%d}', grader_hex_(arg), ...
                                       grader_hex_(stack(k).file(numel(student_dir) + 1:end)), stack(k).line);
            end
            break;
          end
        end
      end
  end
end
